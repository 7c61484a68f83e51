import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { useCities } from '../api/get-cities.ts';
import { useCountries } from '../api/get-countries.ts';

type PickerProps = Omit<SelectProps, 'data'>;

/** Every country, searchable by name. */
export function CountrySelect(props: PickerProps) {
  const countries = useCountries();
  const data = useMemo(
    () => (countries.data ?? []).map((country) => ({ value: String(country.CountryId), label: country.CountryName })),
    [countries.data],
  );
  return <Select searchable nothingFoundMessage="No country found" limit={300} {...props} data={data} />;
}

/**
 * The cities of one country. There can be thousands, so it is searchable and shows the
 * first hundred matches; it stays disabled until a country is chosen.
 */
export function CitySelect({ countryId, ...props }: PickerProps & { countryId: number | null }) {
  const cities = useCities(countryId);
  const data = useMemo(
    () => (cities.data ?? []).map((city) => ({ value: String(city.CityId), label: city.CityName })),
    [cities.data],
  );
  return (
    <Select
      searchable
      nothingFoundMessage="No city found"
      limit={100}
      placeholder={countryId === null ? 'Choose a country first' : 'Search a city'}
      {...props}
      data={data}
      disabled={countryId === null || props.disabled}
    />
  );
}

/** A stored clinic's city name, read from its country's city list. */
export function CityName({ countryId, cityId }: { countryId: number; cityId: number }) {
  const cities = useCities(countryId);
  return cities.data?.find((city) => city.CityId === cityId)?.CityName ?? '';
}
