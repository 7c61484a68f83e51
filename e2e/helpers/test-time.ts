import os from 'node:os';

/**
 * The one factor every test timeout and helper deadline is multiplied by
 * (docs/decisions/test-time-factor.md): TEST_TIME_FACTOR when set; otherwise 1 plus the
 * machine's load per core when the run starts (a busy machine gets longer bounds), at least 3
 * under CI=true (.ci/run sets it: the run itself saturates a 2-core machine after the start),
 * at most 10. A deadline is a bound for a test that hangs, never a pace: every wait ends as
 * soon as its outcome is there, so a larger factor costs nothing on a run that passes.
 *
 * vitest.config.ts computes it once and puts it in the environment, so the test workers (and
 * the processes they start) use the same factor the configuration's timeouts were scaled by.
 */
function measure(): number {
  const given = Number(process.env.TEST_TIME_FACTOR);
  if (Number.isFinite(given) && given > 0) return given;
  const loadPerCore = os.loadavg()[0]! / os.availableParallelism();
  const floor = process.env.CI && process.env.CI !== 'false' ? 3 : 1;
  return Math.round(Math.min(10, Math.max(floor, 1 + loadPerCore)) * 10) / 10;
}

export const timeFactor = measure();
process.env.TEST_TIME_FACTOR = String(timeFactor);

/** `ms` (a timeout or deadline as a quiet fast machine would need it) times the run's factor. */
export const scaled = (ms: number): number => Math.round(ms * timeFactor);
