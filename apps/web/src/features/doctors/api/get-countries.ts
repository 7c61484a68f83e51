import type { Country } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getCountries = () => api.get<Country[]>('/country/get_countries_list');

/** Countries never change while the app runs. */
export const countriesQueryOptions = () =>
  queryOptions({ queryKey: ['countries'], queryFn: getCountries, staleTime: Infinity });

export const useCountries = () => useQuery(countriesQueryOptions());
