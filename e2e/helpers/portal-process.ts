import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

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
  options: { quiet?: boolean } = {},
): Promise<PortalProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    // As `npm start` runs it (apps/server/package.json): Node strips the types itself, no
    // TypeScript loader in the process, V8's young generation capped for a small idle
    // footprint, and old-generation headroom so upload bodies are freed by scavenges.
    [
      '--max-semi-space-size=4',
      '--heap-growing-percent=300',
      ...(process.env.PORTAL_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
      'apps/server/src/main.ts',
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
      stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', 'inherit'],
    },
  );
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}`);
    if (Date.now() - started > 240_000) throw new Error('portal did not become ready');
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
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
