import { useQuery } from '@tanstack/react-query';
import { roleListQueryOptions } from '../../../lib/shared-queries.ts';

/** The roles a doctor may be given; the same list (and cache entry) the Roles screen reads. */
export const useRoles = (isEnabled: boolean) => useQuery({ ...roleListQueryOptions(), enabled: isEnabled });
