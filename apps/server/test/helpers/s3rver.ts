import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { stopGroup, trackProcess } from '../../../../e2e/helpers/started-processes.ts';

/** s3rver accepts any key pair; these are the ones its documentation uses. */
export const s3rverCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * ListParts and AbortMultipartUpload, which s3rver 3 lacks (it answers 405) and the tus S3
 * store uses to resume and to cancel an upload, answered from s3rver's own part files
 * (<bucket>/._S3rver_uploads/<uploadId>/<n>, with <n>.md5), the way S3 does: the parts
 * stored so far with their sizes and ETags, or NoSuchUpload once the upload is completed or
 * aborted. Everything else is s3rver's.
 */
const multipartCalls = `
const noSuchUpload = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code>' +
  '<Message>The specified upload does not exist.</Message></Error>';
server.middleware.unshift(async (ctx, next) => {
  const target = /^\\/([^/]+)\\/(.+)$/.exec(ctx.path);
  const uploadId = ctx.query.uploadId;
  if (!target || typeof uploadId !== 'string' || !['GET', 'DELETE'].includes(ctx.method)) return next();
  const folder = path.join(server.store.getResourcePath(target[1], undefined, 'uploads'), path.basename(uploadId));
  ctx.type = 'application/xml';
  if (!fs.existsSync(folder)) {
    ctx.status = 404;
    ctx.body = noSuchUpload;
  } else if (ctx.method === 'DELETE') {
    fs.rmSync(folder, { recursive: true, force: true });
    ctx.status = 204;
  } else {
    const parts = fs.readdirSync(folder).filter((name) => /^\\d+$/.test(name)).map(Number).sort((a, b) => a - b);
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><ListPartsResult>' +
      '<Bucket>' + target[1] + '</Bucket><UploadId>' + uploadId + '</UploadId><IsTruncated>false</IsTruncated>' +
      parts.map((number) => {
        const file = path.join(folder, String(number));
        const md5 = fs.readFileSync(file + '.md5', 'utf8');
        return '<Part><PartNumber>' + number + '</PartNumber><ETag>"' + md5 + '"</ETag><Size>' +
          fs.statSync(file).size + '</Size></Part>';
      }).join('') + '</ListPartsResult>';
  }
});
`;

/**
 * s3rver runs in a child process started with --openssl-legacy-provider: its ListObjectsV2
 * continuation tokens are DES-encrypted, and OpenSSL 3 (Node 17+) only offers DES through the
 * legacy provider, which cannot be switched on inside an already running process. Without it,
 * any listing with a ContinuationToken answers 500 InternalError.
 */
const s3rverScript = `
const fs = require('node:fs');
const path = require('node:path');
const S3rver = require(process.argv[1]);
const options = JSON.parse(process.argv[2]);
const server = new S3rver(options);
${multipartCalls}
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
    // A group of its own, stopped even when a test fails (e2e/helpers/started-processes.ts).
    { stdio: ['pipe', 'pipe', 'inherit'], detached: true },
  );
  trackProcess(child);
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
        await stopGroup(child);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
