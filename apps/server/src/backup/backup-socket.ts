import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../db/client.ts';
import type { Storage } from '../storage/storage.ts';
import { readSchemaVersion } from './database-facts.ts';

/**
 * Where a portal on PGlite takes backup requests: a Unix socket in DATA_DIR, reachable only by
 * who may read DATA_DIR anyway (docs/decisions/backups.md § Backups while the portal serves).
 */
export const backupSocketPath = (dataDir: string) => path.join(dataDir, 'backup.sock');

/**
 * PGlite is this process's own database: `npm run backup` cannot open it beside the portal, so
 * it asks the portal. For each connection: deletions of stored files are held, and the answer is
 * asked for the dump (`dump\n`), one JSON line (`{ schema, bytes }`) and then the gzipped data directory; the hold lasts until
 * the backup closes the connection, having copied the files.
 */
export async function listenForBackups(deps: {
  dataDir: string;
  database: DatabaseConnection;
  storage: Storage;
  log: FastifyBaseLogger;
}): Promise<{ close(): Promise<void> }> {
  const socketPath = backupSocketPath(deps.dataDir);
  // A socket file a killed process left: only one process can have this PGlite data open.
  await rm(socketPath, { force: true });
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const release = deps.storage.holdDeletions();
    socket.once('close', () => void release());
    socket.on('error', () => {});
    // Nothing happens until the backup asks (`dump\n`): a restore only checks that no portal listens.
    socket.once('data', () => {
      socket.resume();
      answer().catch((error: unknown) => {
        deps.log.error({ err: error }, 'database dump for a backup failed');
        socket.destroy();
      });
    });
    const answer = async () => {
      const schema = await readSchemaVersion(deps.database.db);
      const dump = Buffer.from(await (await deps.database.dumpDataDir!('gzip')).arrayBuffer());
      socket.write(`${JSON.stringify({ schema, bytes: dump.length })}\n`);
      socket.write(dump);
      deps.log.info({ bytes: dump.length }, 'database dumped for a backup');
    };
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A backup still copying fails (it says so); the process is stopping.
        for (const socket of sockets) socket.destroy();
        void rm(socketPath, { force: true });
      }),
  };
}
