import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { PasswordHasher } from '../src/auth/passwords.ts';
import { connectDatabase } from '../src/db/client.ts';
import { prepareDatabase } from '../src/db/prepare.ts';
import { geographyRows, readGeographyData } from '../src/db/seed.ts';
import { silentLogger, testAdmin, testPasswordHashing } from './helpers/constants.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(300_000) });

/**
 * The product's full geography (country-state-city's 148,035 cities), which the tests' template
 * leaves out (test/helpers/test-geography.ts). Each test reads the package or seeds a PGlite of
 * its own in memory, whatever DATABASE_URL says: run once, in `npm test` (vitest.config.ts
 * `server-units`). On PostgreSQL a first start seeds it too (scale-out.test.ts starts two
 * portals on an empty database).
 */
describe('the seeded countries and cities', () => {
  it("seeds the package's every country and city into an empty database, as a first start does", async () => {
    const connection = await connectDatabase({});
    try {
      await prepareDatabase(connection, silentLogger, {
        admin: { ...testAdmin, passwords: new PasswordHasher(testPasswordHashing) },
      });
      const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
        ((await connection.db.execute(query)) as unknown as { rows: T[] }).rows;
      const [counts] = await rowsOf<{ countries: number; cities: number }>(sql`
        select (select count(*)::int from countries) as countries, (select count(*)::int from cities) as cities`);
      const { countryRows, cityRows } = await geographyRows();
      expect(counts).toEqual({ countries: countryRows.length, cities: cityRows.length });
      const berlin = await rowsOf<{ country: string }>(sql`
        select country_name as country from cities join countries using (country_id) where city_name = 'Berlin'`);
      expect(berlin).toEqual([{ country: 'Germany' }]);
    } finally {
      await connection.close();
    }
    // A bound, not a pace: 148,000 cities took 86 s in a loaded CI run on PostgreSQL.
  });

  it('gives every city a label of its own within its country', async () => {
    const { cityRows } = await geographyRows();
    const labels = cityRows.map((row) => `${row.countryId}/${row.cityName}`);
    expect(new Set(labels).size).toBe(labels.length);
    expect(cityRows.length).toBeGreaterThan(140_000);
  });

  it("reads the package's data files as its module gives them: every country, state and city, in order", async () => {
    const { City, Country, State } = await import('country-state-city');
    const read = await readGeographyData();
    expect(read.countries).toEqual(Country.getAllCountries().map(({ name, isoCode }) => ({ name, isoCode })));
    expect(read.states).toEqual(
      State.getAllStates().map(({ name, isoCode, countryCode }) => ({ name, isoCode, countryCode })),
    );
    expect(read.cities).toEqual(
      City.getAllCities().map(({ name, countryCode, stateCode }) => ({ name, countryCode, stateCode })),
    );
  });
});
