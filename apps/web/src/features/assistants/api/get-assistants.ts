import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { assistantKeys } from './query-keys.ts';

/** The signed-in doctor's assistants, revoked ones left out, in name order. */
export const getAssistants = () => api.call('GET /api/doctor/assistants', {});

export const assistantsQueryOptions = () => queryOptions({ queryKey: assistantKeys.own, queryFn: getAssistants });

export const useAssistants = () => useQuery(assistantsQueryOptions());
