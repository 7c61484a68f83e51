import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { InboxItem } from '@portal/contract';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title.tsx';
import { caseSectionPath } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { approvalFor, type CaseViewer } from '../../../lib/case-viewer.ts';
import { useInbox } from '../api/get-inbox.ts';

/** What an item asks of the caller, by side (docs/decisions/messages.md § Inbox). */
function itemTitle(item: InboxItem, viewer: CaseViewer): string {
  if (item.kind === 'message') return 'Unread message';
  return viewer === 'lab'
    ? `Changes requested on plan version ${item.version}`
    : `Plan version ${item.version} awaits ${approvalFor(viewer)}`;
}

function excerptOf(item: InboxItem): string {
  if (item.excerpt) return item.excerpt;
  return item.kind === 'message' ? 'Files attached' : '';
}

function InboxRow({ item, viewer }: { item: InboxItem; viewer: CaseViewer }) {
  const title = itemTitle(item, viewer);
  const excerpt = excerptOf(item);
  return (
    <Paper component="li" withBorder p="sm" aria-label={`${title}, case ${item.trackingNo}`}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Group gap="xs" wrap="wrap">
            <Badge color={item.kind === 'message' ? 'red.9' : 'blue.9'} variant="filled">
              {item.kind === 'message' ? 'Message' : 'Plan'}
            </Badge>
            <Anchor
              component={Link}
              to={caseSectionPath(item.caseId, item.kind === 'message' ? 'messages' : 'plan')}
              fw={600}
            >
              {title}
            </Anchor>
          </Group>
          <Text size="sm">
            Case {item.trackingNo} · {item.patientName}
          </Text>
          {excerpt && (
            <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {excerpt}
            </Text>
          )}
        </Stack>
        <Text size="sm" c="dimmed">
          {formatDateTime(item.at)}
        </Text>
      </Group>
    </Paper>
  );
}

/**
 * The Inbox: everything waiting for the caller across the cases they reach, newest first, a
 * page at a time. It follows changes live; an item leaves once read or decided, here or in
 * another tab.
 */
export function InboxList({ viewer }: { viewer: CaseViewer }) {
  const inbox = useInbox();
  const first = inbox.data?.pages[0];
  const items = inbox.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <PageTitle title="Inbox" />
      {inbox.isError && (
        <Alert color="red" role="alert">
          Your inbox could not be loaded.
        </Alert>
      )}
      {first && (
        <Text size="sm" mb="sm" role="status">
          {first.unreadMessages} unread {first.unreadMessages === 1 ? 'message' : 'messages'}, {first.plansAwaiting}{' '}
          {first.plansAwaiting === 1 ? 'plan' : 'plans'}{' '}
          {viewer === 'lab' ? 'with changes requested' : `awaiting ${approvalFor(viewer)}`}
        </Text>
      )}
      {first && items.length === 0 && <Text c="dimmed">Nothing is waiting for you.</Text>}
      {items.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Waiting for you">
          {items.map((item) => (
            <InboxRow key={`${item.kind}-${item.itemId}`} item={item} viewer={viewer} />
          ))}
        </Stack>
      )}
      {inbox.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="outline" onClick={() => void inbox.fetchNextPage()} loading={inbox.isFetchingNextPage}>
            Show more
          </Button>
        </Group>
      )}
    </>
  );
}
