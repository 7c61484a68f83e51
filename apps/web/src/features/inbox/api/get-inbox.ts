import { useInfiniteQuery } from '@tanstack/react-query';
import { inboxQueryOptions } from '../../../lib/shared-queries.ts';

/**
 * The caller's inbox, a page at a time (fetchNextPage for the next). Live: a new message or
 * plan event, a read in this tab or another (tab-sync), all refresh it through the unread
 * counts' key it sits under.
 */
export const useInbox = () => useInfiniteQuery(inboxQueryOptions());
