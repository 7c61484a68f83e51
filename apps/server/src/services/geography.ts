import type { City, Country } from '@portal/contract';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cities, countries } from '../db/schema.ts';
import { notFound } from '../lib/errors.ts';

export function listCountries(db: Database): Promise<Country[]> {
  return db
    .select({ CountryId: countries.countryId, CountryName: countries.countryName })
    .from(countries)
    .orderBy(asc(countries.countryName));
}

/** The cities of a country; an unknown country is 404, one without cities an empty list. */
export async function listCities(db: Database, countryId: number): Promise<City[]> {
  const [country] = await db
    .select({ countryId: countries.countryId })
    .from(countries)
    .where(eq(countries.countryId, countryId));
  if (!country) throw notFound('Country');
  return db
    .select({ CityId: cities.cityId, CityName: cities.cityName })
    .from(cities)
    .where(eq(cities.countryId, countryId))
    .orderBy(asc(cities.cityName));
}
