import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { CaseMessage, MessageSide } from '@portal/contract';
import { formatDateTime } from '../../../lib/format-date.ts';
import { MessageAttachmentItem } from './message-attachment.tsx';

const sideLabels: Record<MessageSide, string> = { doctor: 'Doctor', lab: 'Lab' };

/** One message: who, which side, when, the text and its files; the viewer's own side is set apart. */
function MessageItem({ message, isOwnSide }: { message: CaseMessage; isOwnSide: boolean }) {
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      bg={isOwnSide ? 'teal.0' : undefined}
      ml={isOwnSide ? 'xl' : 0}
      mr={isOwnSide ? 0 : 'xl'}
      aria-label={`${sideLabels[message.side]} message from ${message.authorName}`}
    >
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Group gap="xs">
          <Text fw={600} size="sm">
            {message.authorName}
          </Text>
          <Badge size="xs" variant="outline" color={message.side === 'lab' ? 'grape.9' : 'blue.9'}>
            {sideLabels[message.side]}
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
  if (messages.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No messages yet. Write to the {ownSide === 'doctor' ? 'lab' : 'doctor'} about this case below.
      </Text>
    );
  }
  return (
    <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Conversation">
      {messages.map((message) => (
        <MessageItem key={message.messageId} message={message} isOwnSide={message.side === ownSide} />
      ))}
    </Stack>
  );
}
