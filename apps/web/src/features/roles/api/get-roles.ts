import { useQuery } from '@tanstack/react-query';
import { roleListQueryOptions } from '../../../lib/shared-queries.ts';

export const useRoles = () => useQuery(roleListQueryOptions());
