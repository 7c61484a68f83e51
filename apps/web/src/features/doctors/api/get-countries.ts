import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { geographyKeys } from './query-keys.ts';

export const getCountries = () => api.call('GET /api/country/get_countries_list');

export const countriesQueryOptions = () =>
  queryOptions({ queryKey: geographyKeys.countries(), queryFn: getCountries, staleTime: Infinity });

export const useCountries = () => useQuery(countriesQueryOptions());
