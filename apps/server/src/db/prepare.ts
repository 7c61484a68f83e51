import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from './client.ts';
import { seedDatabase } from './seed.ts';

/** Migrations, then seeds (roles, pages, countries and cities, the administrator). */
export function prepareDatabase(
  connection: DatabaseConnection,
  log: FastifyBaseLogger,
  admin: { username?: string; password?: string },
): Promise<void> {
  return connection.withStartupLock(async () => {
    await connection.migrate();
    await seedDatabase(connection.db, log, admin);
  });
}
