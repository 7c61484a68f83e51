import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { geographyKeys } from './query-keys.ts';

export const getCities = (countryId: number) =>
  api.call('GET /api/city/get_cities_list/:id', { params: { id: countryId } });

export const citiesQueryOptions = (countryId: number) =>
  queryOptions({ queryKey: geographyKeys.cities(countryId), queryFn: () => getCities(countryId), staleTime: Infinity });

/** The cities of a country; nothing is fetched until a country is chosen. */
export const useCities = (countryId: number | null) =>
  useQuery({ ...citiesQueryOptions(countryId ?? 0), enabled: countryId !== null });
