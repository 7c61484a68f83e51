// First, before anything can write to DATA_DIR: what it writes is the owner's alone (lib/owner-only.ts).
import './lib/owner-only-umask.ts';
import path from 'node:path';
import { buildApp } from './app.ts';
import { listenForBackups } from './backup/backup-socket.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { connectDatabase } from './db/client.ts';
import { prepareDatabase } from './db/prepare.ts';
import { createLogDestination } from './lib/log-destination.ts';
import { restrictDataDir } from './lib/owner-only.ts';
import { startMailDigests } from './mail/digest.ts';
import { startHousekeeping } from './services/housekeeping.ts';

// A refused environment is one line on stderr and a non-zero exit, not a stack trace.
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// A DATA_DIR an older portal or a copy left readable to others is made the owner's alone.
const othersEntries = await restrictDataDir(config.dataDir);
const database = await connectDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
// Log lines go out asynchronously and are never flushed synchronously at exit: a blocked or
// vanished reader of standard output cannot hold the process (lib/log-destination.ts).
const logs = createLogDestination();
const app = await buildApp({ config, database, logger: { stream: logs.stream } });
if (othersEntries.length > 0) {
  app.log.warn(
    { count: othersEntries.length, first: othersEntries.slice(0, 10) },
    "DATA_DIR: entries owned by another account keep their modes (change their owner to the portal's)",
  );
}
await prepareDatabase(database, app.log, {
  admin: {
    username: config.adminUsername,
    password: config.adminPassword,
    email: config.adminEmail,
    passwords: app.passwords,
  },
  labSettings: config.firstStartSettings,
});
// What uploads cut short by a killed process left (files, S3 parts, expired resumable uploads):
// swept at start, then every SWEEP_INTERVAL by one process at a time. Housekeeping only: a
// failure is logged and does not stop the start.
const housekeeping = startHousekeeping(
  { database, storage: app.storage, log: app.log },
  { graceSeconds: config.orphanFileGraceSeconds, intervalSeconds: config.sweepIntervalSeconds },
);
await housekeeping.firstSweep;
app.outbox.start();
app.jobs.start();
// The daily digest of the case mails users chose to get so, at the lab's digest hour (its Settings).
const digests = startMailDigests({ db: app.db, outbox: app.outbox, publicUrl: config.publicUrl, log: app.log });
// PGlite is this process's own: `npm run backup` asks it for the database (backup/backup-socket.ts).
const backups =
  database.driver === 'pglite'
    ? await listenForBackups({ dataDir: config.dataDir, database, storage: app.storage, log: app.log })
    : undefined;

// Output whose reader has gone (a supervisor's pipe closed, `npm start` piped and its parent
// gone): writes fail with EPIPE. That must neither throw nor keep the process alive; the
// logger's destination drops its lines then.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

// SIGTERM and SIGINT: stop taking connections, let requests in flight finish, then exit.
// SHUTDOWN_TIMEOUT (30 s) bounds the wait whatever is in flight: idle connections close at
// once, every other one at the deadline, and the process exits.
let isClosing = false;
/** Exits once the last log lines are out, or half a second later if the output does not take them. */
const exit = (code: number) => void logs.flush(500).then(() => process.exit(code));
// A request still running at shutdown answers with `Connection: close`: otherwise its client's
// keep-alive connection holds close() open until the keep-alive timeout (72 s).
app.addHook('onSend', async (_request, reply) => {
  if (isClosing) reply.header('connection', 'close');
});
const shutdown = (signal: NodeJS.Signals) => {
  if (isClosing) return;
  isClosing = true;
  housekeeping.stop();
  digests.stop();
  app.log.info({ signal, timeoutSeconds: config.shutdownTimeoutSeconds }, 'shutting down');
  setTimeout(() => {
    app.log.warn(
      { timeoutSeconds: config.shutdownTimeoutSeconds },
      'shutdown deadline reached: closing every connection',
    );
    app.server.closeAllConnections();
    // What is left (a database that does not answer, a stuck write) gets one more second.
    setTimeout(() => process.exit(1), 1000);
  }, config.shutdownTimeoutSeconds * 1000);
  app
    .close()
    .then(() => backups?.close())
    .then(() => database.close())
    .then(() => exit(0))
    .catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      exit(1);
    });
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, shutdown);

// The port taken or not allowed: one line too, like a refused configuration.
const listenErrors: Record<string, string> = {
  EADDRINUSE: 'is already in use',
  EACCES: 'may not be used by this user',
  EADDRNOTAVAIL: 'is not an address of this machine',
};
await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
  const reason = listenErrors[(error as NodeJS.ErrnoException).code ?? ''];
  if (!reason) throw error;
  process.stderr.write(`Could not start: ${config.host}:${config.port} ${reason} (set PORT or HOST)\n`);
  process.exit(1);
});
// The operator's metrics on a port of their own (METRICS_PORT), refused in one line as the main port is.
await app.listenForMetrics().catch((error: unknown) => {
  const reason = listenErrors[(error as NodeJS.ErrnoException).code ?? ''];
  if (!reason) throw error;
  const { host, port } = config.metrics!;
  process.stderr.write(`Could not start: ${host}:${port} ${reason} (set METRICS_PORT or METRICS_HOST)\n`);
  process.exit(1);
});
app.log.info(`Aligner Portal at ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs)`);
