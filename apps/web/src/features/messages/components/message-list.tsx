import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { CaseMessage, MessageSide } from '@portal/contract';
import { formatDateTime } from '../../../lib/format-date.ts';
import { MessageAttachmentItem } from './message-attachment.tsx';

const sideLabels: Record<MessageSide, MessageDescriptor> = { doctor: msg`Doctor`, lab: msg`Lab` };

/** One message: who, which side, when, the text and its files; the viewer's own side is set apart. */
function MessageItem({ message, isOwnSide }: { message: CaseMessage; isOwnSide: boolean }) {
  const { t, i18n } = useLingui();
  const side = i18n._(sideLabels[message.side]);
  const authorName = message.authorName;
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      bg={isOwnSide ? 'teal.0' : undefined}
      ml={isOwnSide ? 'xl' : 0}
      mr={isOwnSide ? 0 : 'xl'}
      aria-label={t`${side} message from ${authorName}`}
    >
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Group gap="xs">
          <Text fw={600} size="sm">
            {message.authorName}
          </Text>
          <Badge size="xs" variant="outline" color={message.side === 'lab' ? 'grape.9' : 'blue.9'}>
            {side}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" component="time" dateTime={message.at}>
          {formatDateTime(message.at)}
        </Text>
      </Group>
      {message.text && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message.text}
        </Text>
      )}
      {message.attachments.length > 0 && (
        <Stack gap={2} mt={6}>
          {message.attachments.map((file) => (
            <MessageAttachmentItem key={file.url} file={file} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** The conversation, oldest first. */
export function MessageList({ messages, ownSide }: { messages: CaseMessage[]; ownSide: MessageSide }) {
  const { t } = useLingui();
  if (messages.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {ownSide === 'doctor' ? (
          <Trans>No messages yet. Write to the lab about this case below.</Trans>
        ) : (
          <Trans>No messages yet. Write to the doctor about this case below.</Trans>
        )}
      </Text>
    );
  }
  return (
    <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t`Conversation`}>
      {messages.map((message) => (
        <MessageItem key={message.messageId} message={message} isOwnSide={message.side === ownSide} />
      ))}
    </Stack>
  );
}
