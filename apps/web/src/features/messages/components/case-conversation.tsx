import { Trans, useLingui } from '@lingui/react/macro';
import { Paper, ScrollArea, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { usePageVisible } from '../../../lib/page-visible.ts';
import { isDoctorSide, useSession, type Session } from '../../../lib/session.ts';
import { useCaseMessages } from '../api/get-case-messages.ts';
import { useMarkCaseRead } from '../api/mark-case-read.ts';
import { MessageComposer } from './message-composer.tsx';
import { MessageList } from './message-list.tsx';

/**
 * The case's conversation between its doctor and the lab (docs/decisions/messages.md § Messages):
 * the messages, scrolled to the newest, and the composer. While it is open and on screen, the
 * case is marked read, again whenever a new message arrives (live events refetch the list); in a
 * background tab it waits until the tab is shown, so the inbox still lists what nobody has seen.
 */
export function CaseConversation({ caseId }: { caseId: number }) {
  const { t } = useLingui();
  const session = useSession() as Session;
  const messages = useCaseMessages(caseId);
  const { mutate: markRead } = useMarkCaseRead();
  const viewport = useRef<HTMLDivElement>(null);
  const newestId = messages.data?.at(-1)?.messageId;
  const isVisible = usePageVisible();

  useEffect(() => {
    if (newestId === undefined) return;
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [newestId]);
  // The newest message marked read, so showing the tab again marks only what came while hidden.
  const markedId = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (newestId === undefined || !isVisible || markedId.current === newestId) return;
    markedId.current = newestId;
    markRead(caseId);
  }, [caseId, newestId, isVisible, markRead]);

  return (
    <Paper withBorder p="md" component="section" aria-label={t`Messages`} id="messages">
      <Title order={3} size="h4" mb="sm">
        <Trans>Messages</Trans>
      </Title>
      {messages.data ? (
        // Focusable, so a keyboard can scroll a long conversation (axe: scrollable-region-focusable).
        <ScrollArea.Autosize
          mah={480}
          viewportRef={viewport}
          viewportProps={{ tabIndex: 0, role: 'group', 'aria-label': t`Messages so far` }}
          mb="md"
          type="auto"
        >
          <MessageList messages={messages.data} ownSide={isDoctorSide(session) ? 'doctor' : 'lab'} />
        </ScrollArea.Autosize>
      ) : (
        <Text size="sm" c="dimmed" mb="md">
          {messages.isError ? t`The messages could not be loaded.` : t`Loading...`}
        </Text>
      )}
      <MessageComposer caseId={caseId} />
    </Paper>
  );
}
