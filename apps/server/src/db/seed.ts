import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  ADMIN_ROLE_ID,
  DOCTOR_ROLE_ID,
  defaultLabSettings,
  pages as pageList,
  unsetAdminEmail,
  type LabSettings,
} from '@portal/contract';
import { seedLabSettings } from '../services/lab-settings.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { Database } from './client.ts';
import { cities, countries, pages, roles, users } from './schema.ts';

/** What seeding logs to: the app's logger, or any with pino's `info(details, message)`. */
export interface SeedLog {
  info(details: object, message: string): void;
}

/** The package's own data files: [name, countryCode, stateCode, latitude, longitude] per city. */
type CityEntry = [name: string, countryCode: string, stateCode: string, ...rest: string[]];
const readGeographyFile = async <T>(name: 'country' | 'state' | 'city'): Promise<T> =>
  JSON.parse(
    await readFile(createRequire(import.meta.url).resolve(`country-state-city/lib/assets/${name}.json`), 'utf8'),
  ) as T;

/**
 * The countries, states and cities of `country-state-city`, read from its data files rather
 * than through its module: the module keeps every city as an object for the life of the
 * process (a first start that seeded an empty database held 246 MB RSS that way, 202 MB
 * reading the files, 115 MB on the next start); read here, they are garbage once seeded.
 */
export async function readGeographyData() {
  const [countries, states, cityEntries] = await Promise.all([
    readGeographyFile<{ name: string; isoCode: string }[]>('country'),
    readGeographyFile<{ name: string; isoCode: string; countryCode: string }[]>('state'),
    readGeographyFile<CityEntry[]>('city'),
  ]);
  return {
    countries: countries.map(({ name, isoCode }) => ({ name, isoCode })),
    states: states.map(({ name, isoCode, countryCode }) => ({ name, isoCode, countryCode })),
    cities: cityEntries.map(([name, countryCode, stateCode]) => ({ name, countryCode, stateCode })),
  };
}

/** Country ids follow the package's alphabetical order; city ids its city order. */
export async function geographyRows() {
  const { countries: allCountries, states: allStates, cities: allCities } = await readGeographyData();
  const countryRows = [...allCountries]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((country, index) => ({ countryId: index + 1, isoCode: country.isoCode, countryName: country.name }));
  const countryIdOf = new Map(countryRows.map((row) => [row.isoCode, row.countryId]));
  const stateNames = new Map(allStates.map((state) => [`${state.countryCode}/${state.isoCode}`, state.name]));
  const nameCount = new Map<string, number>();
  for (const city of allCities) {
    const key = `${city.countryCode}/${city.name}`;
    nameCount.set(key, (nameCount.get(key) ?? 0) + 1);
  }
  // A name that occurs twice in one country is told apart by its state ("Springfield, Illinois").
  // The package lists a few places twice in one state under one name; a person could not
  // tell them apart in a list, so only the first is kept (ids stay the package's order).
  const labels = new Set<string>();
  const cityRows = allCities.flatMap((city, index) => {
    const countryId = countryIdOf.get(city.countryCode);
    if (!countryId) return [];
    const state = stateNames.get(`${city.countryCode}/${city.stateCode}`);
    const isAmbiguous = (nameCount.get(`${city.countryCode}/${city.name}`) ?? 0) > 1;
    const cityName = isAmbiguous && state ? `${city.name}, ${state}` : city.name;
    if (labels.has(`${countryId}/${cityName}`)) return [];
    labels.add(`${countryId}/${cityName}`);
    return [{ cityId: index + 1, countryId, cityName }];
  });
  return { countryRows, cityRows };
}

/** The countries and cities a database is seeded with: `geographyRows()`, or a part of it. */
export type GeographyRows = Awaited<ReturnType<typeof geographyRows>>;

async function seedGeography(db: Database, geography: () => Promise<GeographyRows>) {
  const [existing] = await db.select({ count: sql<number>`count(*)::int` }).from(countries);
  if ((existing?.count ?? 0) > 0) return;
  const { countryRows, cityRows } = await geography();
  await db.transaction(async (tx) => {
    await tx.insert(countries).values(countryRows);
    for (let start = 0; start < cityRows.length; start += 20_000) {
      const chunk = cityRows.slice(start, start + 20_000);
      await tx.execute(sql`
        insert into ${cities} (city_id, country_id, city_name)
        select * from unnest(
          ${`{${chunk.map((row) => row.cityId).join(',')}}`}::int[],
          ${`{${chunk.map((row) => row.countryId).join(',')}}`}::int[],
          ${`{${chunk.map((row) => JSON.stringify(row.cityName)).join(',')}}`}::text[])`);
    }
  });
}

/** ADMIN_USERNAME, ADMIN_PASSWORD and ADMIN_EMAIL, and how the password is hashed (the configured cost). */
export interface Administrator {
  username?: string;
  password?: string;
  /** Unset: `unsetAdminEmail`, and the administrator is asked for a real address when signed in. */
  email?: string;
  passwords: PasswordHasher;
}

/** The administrator from ADMIN_USERNAME/ADMIN_PASSWORD/ADMIN_EMAIL, or a generated password shown once. */
async function seedAdministrator(db: Database, log: SeedLog, { username, password, email, passwords }: Administrator) {
  const [existing] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(eq(users.roleId, ADMIN_ROLE_ID), eq(users.userType, 'Web'), isNull(users.deletedAt)));
  if (existing) return;
  const name = username ?? 'admin';
  const secret = password ?? randomBytes(12).toString('base64url');
  await db.insert(users).values({
    userName: name,
    firstName: 'Portal',
    lastName: 'Administrator',
    email: email ?? unsetAdminEmail,
    roleId: ADMIN_ROLE_ID,
    userType: 'Web',
    passwordHash: await passwords.hash(secret),
  });
  if (!password) {
    // Printed once, on purpose, outside the structured log.
    process.stdout.write(
      `\nAdministrator created: username "${name}", password "${secret}". Change it after signing in.\n\n`,
    );
  }
  log.info({ username: name }, 'administrator created');
}

export interface SeedOptions {
  /** The administrator made when the database has none: ADMIN_USERNAME/ADMIN_PASSWORD. */
  admin: Administrator;
  /**
   * Where the countries and cities come from: the whole package by default. The tests' template
   * takes a few of them (test/helpers/test-geography.ts): 148,035 cities cost every test file's
   * copy of the database 70 MB.
   */
  geography?: () => Promise<GeographyRows>;
  /** The lab's settings a database without them starts with (the environment's: config.firstStartSettings); the defaults when not given. */
  labSettings?: LabSettings;
}

export async function seedDatabase(db: Database, log: SeedLog, options: SeedOptions): Promise<void> {
  await db
    .insert(roles)
    .values([
      { roleId: ADMIN_ROLE_ID, roleName: 'Administrator', description: 'Full access' },
      { roleId: DOCTOR_ROLE_ID, roleName: 'Doctor', description: 'Doctors who submit cases' },
    ])
    .onConflictDoNothing();
  await db
    .insert(pages)
    .values(pageList.map((page) => ({ pageId: page.PageId, pageName: page.PageName, pageUrl: page.PageUrl })))
    .onConflictDoNothing();
  await seedGeography(db, options.geography ?? geographyRows);
  await seedAdministrator(db, log, options.admin);
  await seedLabSettings(db, options.labSettings ?? defaultLabSettings);
}
