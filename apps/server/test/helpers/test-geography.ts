import { geographyRows, type GeographyRows } from '../../src/db/seed.ts';

/** Cities the tests name, kept wherever they are; with them every city of these countries. */
const namedCities = new Set(['Chicago', 'Berlin', 'Hamburg', 'London', 'Karachi']);
const wholeCountries = new Set(['Afghanistan', 'Albania']);

/**
 * The tests' geography: every country, and a few hundred of the product's cities (ids and
 * labels as the full seed gives them), among them the three "Springfield, <state>" that tell
 * apart a name shared within one country. geography-seed.test.ts seeds the full list once.
 */
export async function testGeography(): Promise<GeographyRows> {
  const { countryRows, cityRows } = await geographyRows();
  const wholeCountryIds = new Set(
    countryRows.filter((row) => wholeCountries.has(row.countryName)).map((row) => row.countryId),
  );
  return {
    countryRows,
    cityRows: cityRows.filter(
      (row) =>
        wholeCountryIds.has(row.countryId) || namedCities.has(row.cityName) || row.cityName.startsWith('Springfield, '),
    ),
  };
}
