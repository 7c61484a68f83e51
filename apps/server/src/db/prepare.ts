import type { DatabaseConnection } from './client.ts';
import { seedDatabase, type SeedLog, type SeedOptions } from './seed.ts';

/** Migrations, then seeds (roles, pages, countries and cities, the administrator). */
export function prepareDatabase(connection: DatabaseConnection, log: SeedLog, options: SeedOptions): Promise<void> {
  return connection.withStartupLock(async () => {
    await connection.migrate();
    await seedDatabase(connection.db, log, options);
  });
}
