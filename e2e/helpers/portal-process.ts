import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from '../../apps/server/build.ts';
import { stopGroup, trackProcess } from './started-processes.ts';
import { scaled } from './test-time.ts';

const root = path.resolve(import.meta.dirname, '../..');
const serverFolder = path.join(root, 'apps/server');

/**
 * The command `npm start` runs (apps/server's `start` script, `node <flags> dist/main.js`):
 * its Node flags and its entry file, so tests and benchmarks start exactly what it starts.
 */
function readStartCommand(): { nodeFlags: string[]; entry: string } {
  const manifest = JSON.parse(readFileSync(path.join(serverFolder, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [program, ...args] = manifest.scripts.start.split(' ');
  const entry = args.pop();
  if (program !== 'node' || !entry?.endsWith('.js'))
    throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return { nodeFlags: args, entry: path.join(serverFolder, entry) };
}

export const startCommand = readStartCommand();

/**
 * The server compiled from the current source, once per process that starts portals: a test or
 * benchmark run on its own never starts a stale dist/ (the build takes under a second; concurrent
 * builds write the same files, each replaced whole).
 */
let serverBuild: Promise<void> | undefined;
export const compiledServer = () => (serverBuild ??= buildServer());

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ApiCallOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
}

export interface PortalProcess {
  baseUrl: string;
  child: ChildProcess;
  /** fetch() of `/api${url}` with an optional bearer token and a JSON or multipart body. */
  api(method: string, url: string, options?: ApiCallOptions): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * The real portal as `npm start` runs it (one process serving the API and the built web
 * app) on a free loopback port, waiting until /api/ready answers.
 */
export async function startPortal(
  env: Record<string, string>,
  /**
   * `hostName`: the address's host (and so PUBLIC_URL's); `localhost` where passkeys need a
   * domain name. `onOutput`: each line the process writes to stdout.
   */
  options: { quiet?: boolean; hostName?: string; onOutput?: (line: string) => void } = {},
): Promise<PortalProcess> {
  await compiledServer();
  const port = await freePort();
  const baseUrl = `http://${options.hostName ?? '127.0.0.1'}:${port}`;
  const child = spawn(
    process.execPath,
    // As `npm start` runs it: the compiled server with the start script's V8 flags
    // (docs/decisions/build-and-runtime.md § Start command and compiled output).
    [
      ...startCommand.nodeFlags,
      ...(process.env.PORTAL_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
      startCommand.entry,
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        LOG_LEVEL: 'warn',
        SMTP_URL: '',
        S3_BUCKET: '',
        REDIS_URL: '',
        ...env,
      },
      stdio: ['ignore', options.onOutput ? 'pipe' : options.quiet ? 'ignore' : 'inherit', 'inherit'],
      // A process group of its own: stopped, it takes whatever it started with it; and stopped
      // even when the test that started it fails or times out (started-processes.ts).
      detached: true,
    },
  );
  trackProcess(child);
  // Its log, line by line (pino's JSON), for a test that waits for what the process says.
  if (options.onOutput) createInterface({ input: child.stdout! }).on('line', options.onOutput);
  const deadline = Date.now() + scaled(240_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`portal exited with ${child.exitCode ?? child.signalCode}`);
    if (Date.now() > deadline) {
      await stopGroup(child, { signal: 'SIGKILL' });
      throw new Error('portal did not become ready');
    }
    try {
      if ((await fetch(`${baseUrl}/api/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    baseUrl,
    child,
    api: (method, url, options = {}) =>
      fetch(`${baseUrl}/api${url}`, {
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined),
      }),
    // SIGTERM, as a host stops it; SIGKILL if it has not exited after twice its 30 s shutdown bound.
    stop: () => stopGroup(child, { graceMs: 60_000 }),
  };
}
