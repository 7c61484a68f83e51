import type { DatabaseConnection } from './client.ts';
import { seedDatabase, type Administrator, type SeedLog } from './seed.ts';

/** Migrations, then seeds (roles, pages, countries and cities, the administrator). */
export function prepareDatabase(connection: DatabaseConnection, log: SeedLog, admin: Administrator): Promise<void> {
  return connection.withStartupLock(async () => {
    await connection.migrate();
    await seedDatabase(connection.db, log, admin);
  });
}
