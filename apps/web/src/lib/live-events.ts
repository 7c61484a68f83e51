import { routePath } from '@portal/contract/client';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { caseKeys, messageKeys } from './shared-queries.ts';

/**
 * The case an event is about. Every event the stream carries names one (the contract's
 * `case.*` events); the rest of it is not read, so it is not parsed with their schemas,
 * which would bring zod to every signed-in page (docs/decisions/speed.md § On the wire).
 */
function caseIdOf(data: string): number | undefined {
  const event = JSON.parse(data) as { caseId?: unknown } | null;
  return typeof event?.caseId === 'number' ? event.caseId : undefined;
}

/** What a status change makes stale: the tiles, the lists, and that case's history if it is open. */
function onCaseStatus(queryClient: QueryClient, data: string) {
  const caseId = caseIdOf(data);
  if (caseId === undefined) return;
  void queryClient.invalidateQueries({ queryKey: caseKeys.allStats() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) });
}

/** What a new message makes stale: that case's conversation and timeline, and the unread counts. */
function onCaseMessage(queryClient: QueryClient, data: string) {
  const caseId = caseIdOf(data);
  if (caseId === undefined) return;
  void queryClient.invalidateQueries({ queryKey: messageKeys.ofCase(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) });
  void queryClient.invalidateQueries({ queryKey: messageKeys.unread() });
}

/** What a plan version or decision makes stale: the plan tiles and lists, the case, its timeline and plans, the inbox. */
function onCasePlan(queryClient: QueryClient, data: string) {
  const caseId = caseIdOf(data);
  if (caseId === undefined) return;
  void queryClient.invalidateQueries({ queryKey: caseKeys.allStats() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.plans(caseId) });
  void queryClient.invalidateQueries({ queryKey: messageKeys.inbox() });
}

/**
 * What a progress scan sent or fitted makes stale: that case's scans (list and results) and its
 * timeline, and the lists and the case, whose Off track mark a fit may change.
 */
function onCaseProgressScan(queryClient: QueryClient, data: string) {
  const caseId = caseIdOf(data);
  if (caseId === undefined) return;
  void queryClient.invalidateQueries({ queryKey: caseKeys.progressScans(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) });
}

/** What a new technician makes stale: the lists (Mine, Unassigned), the case and its timeline. */
function onCaseAssignee(queryClient: QueryClient, data: string) {
  const caseId = caseIdOf(data);
  if (caseId === undefined) return;
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.detail(caseId) });
  void queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) });
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
    const source = new EventSource(routePath('GET /api/events'), { withCredentials: true });
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
    source.addEventListener('case.progressScan', (event) =>
      onCaseProgressScan(queryClient, (event as MessageEvent<string>).data),
    );
    source.addEventListener('case.assignee', (event) =>
      onCaseAssignee(queryClient, (event as MessageEvent<string>).data),
    );
    return () => source.close();
  }, [token, queryClient]);
}
