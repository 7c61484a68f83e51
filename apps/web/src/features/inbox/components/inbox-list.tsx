import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { InboxItem } from '@portal/contract';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title.tsx';
import { caseSectionPath } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { CaseViewer } from '../../../lib/case-viewer.ts';
import { i18n } from '../../../lib/i18n.ts';
import { useInbox } from '../api/get-inbox.ts';

/** What an item asks of the caller, by side (docs/decisions/messages.md § Inbox). */
function itemTitle(item: InboxItem, viewer: CaseViewer): string {
  if (item.kind === 'message') return i18n._(msg`Unread message`);
  const version = String(item.version);
  if (viewer === 'lab') return i18n._(msg`Changes requested on plan version ${version}`);
  // Whose approval, as the viewer reads it: their assistant waits for the doctor's.
  return viewer === 'assistant'
    ? i18n._(msg`Plan version ${version} awaits the doctor's approval`)
    : i18n._(msg`Plan version ${version} awaits your approval`);
}

function excerptOf(item: InboxItem): string {
  if (item.excerpt) return item.excerpt;
  return item.kind === 'message' ? i18n._(msg`Files attached`) : '';
}

function InboxRow({ item, viewer }: { item: InboxItem; viewer: CaseViewer }) {
  const { t } = useLingui();
  const title = itemTitle(item, viewer);
  const excerpt = excerptOf(item);
  const { trackingNo, patientName } = item;
  return (
    <Paper component="li" withBorder p="sm" aria-label={t`${title}, case ${trackingNo}`}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Group gap="xs" wrap="wrap">
            <Badge color={item.kind === 'message' ? 'red.9' : 'blue.9'} variant="filled">
              {item.kind === 'message' ? <Trans>Message</Trans> : <Trans>Plan</Trans>}
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
            <Trans>
              Case {trackingNo} · {patientName}
            </Trans>
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
/** 'n unread messages, m plans …' above the list: what waits, as the viewer's side reads it. */
function waitingSummary(unreadMessages: number, plansAwaiting: number, viewer: CaseViewer): string {
  if (viewer === 'lab') {
    return i18n._(
      msg`${plural(unreadMessages, { one: '# unread message', other: '# unread messages' })}, ${plural(plansAwaiting, { one: '# plan', other: '# plans' })} with changes requested`,
    );
  }
  if (viewer === 'assistant') {
    return i18n._(
      msg`${plural(unreadMessages, { one: '# unread message', other: '# unread messages' })}, ${plural(plansAwaiting, { one: '# plan', other: '# plans' })} awaiting the doctor's approval`,
    );
  }
  return i18n._(
    msg`${plural(unreadMessages, { one: '# unread message', other: '# unread messages' })}, ${plural(plansAwaiting, { one: '# plan', other: '# plans' })} awaiting your approval`,
  );
}

export function InboxList({ viewer }: { viewer: CaseViewer }) {
  const { t } = useLingui();
  const inbox = useInbox();
  const first = inbox.data?.pages[0];
  const items = inbox.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <PageTitle title={t`Inbox`} />
      {inbox.isError && (
        <Alert color="red" role="alert">
          <Trans>Your inbox could not be loaded.</Trans>
        </Alert>
      )}
      {first && (
        <Text size="sm" mb="sm" role="status">
          {waitingSummary(first.unreadMessages, first.plansAwaiting, viewer)}
        </Text>
      )}
      {first && items.length === 0 && (
        <Text c="dimmed">
          <Trans>Nothing is waiting for you.</Trans>
        </Text>
      )}
      {items.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t`Waiting for you`}>
          {items.map((item) => (
            <InboxRow key={`${item.kind}-${item.itemId}`} item={item} viewer={viewer} />
          ))}
        </Stack>
      )}
      {inbox.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="outline" onClick={() => void inbox.fetchNextPage()} loading={inbox.isFetchingNextPage}>
            <Trans>Show more</Trans>
          </Button>
        </Group>
      )}
    </>
  );
}
