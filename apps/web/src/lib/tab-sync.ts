import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { messageKeys } from './shared-queries.ts';

/**
 * What one tab tells the others of the same browser (a BroadcastChannel, same origin only):
 * the caller read a case's messages, so every tab's unread badges agree without a reload.
 * Another device hears of it at its next read of the counts.
 */
const channelName = 'portal-tabs';

interface TabMessage {
  type: 'messages-read';
  caseId: number;
}

export function announceMessagesRead(caseId: number): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(channelName);
  channel.postMessage({ type: 'messages-read', caseId } satisfies TabMessage);
  channel.close();
}

/** In the signed-in layout: another tab's read refreshes this tab's unread counts and that case's messages. */
export function useTabSync(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(channelName);
    channel.onmessage = (event: MessageEvent<TabMessage>) => {
      if (event.data?.type !== 'messages-read' || typeof event.data.caseId !== 'number') return;
      void queryClient.invalidateQueries({ queryKey: messageKeys.unread() });
      void queryClient.invalidateQueries({ queryKey: messageKeys.ofCase(event.data.caseId) });
    };
    return () => channel.close();
  }, [queryClient]);
}
