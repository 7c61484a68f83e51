import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

/**
 * `npm run fuzz`: the fuzz test with 10,000 runs per route and a random seed, printed before
 * anything else so a failure can be replayed with `FUZZ_SEED=<seed> npm run fuzz`.
 */
const seed = process.env.FUZZ_SEED ?? String(randomInt(2 ** 31 - 1));
const runs = process.env.FUZZ_RUNS ?? '10000';
console.log(`[fuzz] ${runs} runs per route, seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)`);
const result = spawnSync('vitest', ['run', '--project', 'server', 'test/fuzz.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs },
});
process.exit(result.status ?? 1);
