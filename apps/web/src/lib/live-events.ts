import { caseMessageEvent, casePlanEvent, caseStatusEvent, endpoints } from '@portal/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { caseKeys, messageKeys } from './shared-queries.ts';

/** What a status change makes stale: the tiles, the lists, and that case's history if it is open. */
function onCaseStatus(queryClient: QueryClient, data: string) {
  const parsed = caseStatusEvent.safeParse(JSON.parse(data));
  if (!parsed.success) return;
  void queryClient.invalidateQueries({ queryKey: caseKeys.allStats() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.detail(parsed.data.caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(parsed.data.caseId) });
}

/** What a new message makes stale: that case's conversation and timeline, and the unread counts. */
function onCaseMessage(queryClient: QueryClient, data: string) {
  const parsed = caseMessageEvent.safeParse(JSON.parse(data));
  if (!parsed.success) return;
  void queryClient.invalidateQueries({ queryKey: messageKeys.ofCase(parsed.data.caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(parsed.data.caseId) });
  void queryClient.invalidateQueries({ queryKey: messageKeys.unread() });
}

/** What a plan version or decision makes stale: the plan tiles and lists, the case, its timeline and plans. */
function onCasePlan(queryClient: QueryClient, data: string) {
  const parsed = casePlanEvent.safeParse(JSON.parse(data));
  if (!parsed.success) return;
  const { caseId } = parsed.data;
  void queryClient.invalidateQueries({ queryKey: caseKeys.allStats() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.plans(caseId) });
}

/**
 * One EventSource on `GET /api/events` while signed in (the httpOnly cookie signs it in):
 * each event refreshes the queries it makes stale, so the dashboard, its tiles and an
 * open case detail follow changes made by others without a reload. EventSource reconnects
 * by itself; after a reconnection every case query is refreshed, since events sent while
 * disconnected are not replayed. Closed when the user signs out (`token` changes or the
 * layout unmounts).
 */
export function useLiveEvents(token: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    const source = new EventSource(endpoints.eventStream.path, { withCredentials: true });
    let hasOpened = false;
    source.addEventListener('open', () => {
      if (hasOpened) {
        void queryClient.invalidateQueries({ queryKey: caseKeys.all });
        void queryClient.invalidateQueries({ queryKey: messageKeys.all });
      }
      hasOpened = true;
    });
    source.addEventListener('case.status', (event) => onCaseStatus(queryClient, (event as MessageEvent<string>).data));
    source.addEventListener('case.message', (event) =>
      onCaseMessage(queryClient, (event as MessageEvent<string>).data),
    );
    source.addEventListener('case.plan', (event) => onCasePlan(queryClient, (event as MessageEvent<string>).data));
    return () => source.close();
  }, [token, queryClient]);
}
