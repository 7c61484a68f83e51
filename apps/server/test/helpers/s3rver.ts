import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** s3rver accepts any key pair; these are the ones its documentation uses. */
export const s3rverCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * s3rver runs in a child process started with --openssl-legacy-provider: its ListObjectsV2
 * continuation tokens are DES-encrypted, and OpenSSL 3 (Node 17+) only offers DES through the
 * legacy provider, which cannot be switched on inside an already running process. Without it,
 * any listing with a ContinuationToken answers 500 InternalError.
 */
const s3rverScript = `
const S3rver = require(process.argv[1]);
const options = JSON.parse(process.argv[2]);
const server = new S3rver(options);
server.run().then(({ port }) => process.stdout.write(JSON.stringify({ port }) + '\\n'), (error) => {
  console.error(error);
  process.exit(1);
});
// The test's process holds stdin; when it ends (or dies), so does this server.
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** A fake S3 on a free port of 127.0.0.1, in its own temporary folder, with `bucket` made. */
export async function startS3rver(bucket: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-test-'));
  const options = { address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] };
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '-e',
      s3rverScript,
      createRequire(import.meta.url).resolve('s3rver'),
      JSON.stringify(options),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line'),
    exited.then(() => {
      throw new Error('s3rver exited before listening');
    }),
  ])) as [string];
  const { port } = JSON.parse(line) as { port: number };
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      if (!stopped) {
        stopped = true;
        child.kill();
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
