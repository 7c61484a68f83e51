import { Paper, ScrollArea, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { isDoctorSide, useSession, type Session } from '../../../lib/session.ts';
import { useCaseMessages } from '../api/get-case-messages.ts';
import { useMarkCaseRead } from '../api/mark-case-read.ts';
import { MessageComposer } from './message-composer.tsx';
import { MessageList } from './message-list.tsx';

/**
 * The case's conversation between its doctor and the lab (docs/decisions/messages.md § Messages):
 * the messages, scrolled to the newest, and the composer. While it is open, the case is
 * marked read, again whenever a new message arrives (live events refetch the list).
 */
export function CaseConversation({ caseId }: { caseId: number }) {
  const session = useSession() as Session;
  const messages = useCaseMessages(caseId);
  const { mutate: markRead } = useMarkCaseRead();
  const viewport = useRef<HTMLDivElement>(null);
  const newestId = messages.data?.at(-1)?.messageId;

  useEffect(() => {
    if (newestId === undefined) return;
    markRead(caseId);
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [caseId, newestId, markRead]);

  return (
    <Paper withBorder p="md" component="section" aria-label="Messages" id="messages">
      <Title order={3} size="h4" mb="sm">
        Messages
      </Title>
      {messages.data ? (
        <ScrollArea.Autosize mah={480} viewportRef={viewport} mb="md" type="auto">
          <MessageList messages={messages.data} ownSide={isDoctorSide(session) ? 'doctor' : 'lab'} />
        </ScrollArea.Autosize>
      ) : (
        <Text size="sm" c="dimmed" mb="md">
          {messages.isError ? 'The messages could not be loaded.' : 'Loading...'}
        </Text>
      )}
      <MessageComposer caseId={caseId} />
    </Paper>
  );
}
