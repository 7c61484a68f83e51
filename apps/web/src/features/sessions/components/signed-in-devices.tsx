import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SignedInSession } from '@portal/contract';
import { IconDevices, IconLogout } from '@tabler/icons-react';
import { confirmAction } from '../../../components/confirm-delete.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useEndSessions } from '../api/end-sessions.ts';
import { useMySessions } from '../api/get-my-sessions.ts';
import { sessionsEndedText } from '../../../lib/sessions-ended.ts';

function DeviceRow({ session, onEnd }: { session: SignedInSession; onEnd: () => void }) {
  const { t } = useLingui();
  const { device, address } = session;
  const signedInAt = formatDateTime(session.createdAt);
  const lastSeenAt = formatDateTime(session.lastSeenAt);
  return (
    <Paper component="li" withBorder p="sm" aria-label={session.device}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs">
            <Text fw={600}>{session.device}</Text>
            {session.isCurrent && (
              <Badge color="teal.9" variant="filled">
                <Trans>This device</Trans>
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" title={session.userAgent}>
            <Trans>Signed in {signedInAt}</Trans>
          </Text>
          <Text size="sm" c="dimmed">
            <Trans>
              Last seen {lastSeenAt} from {address}
            </Trans>
          </Text>
        </Stack>
        {!session.isCurrent && (
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            leftSection={<IconLogout size={14} aria-hidden />}
            aria-label={t`End ${device}, last seen ${lastSeenAt}`}
            onClick={onEnd}
          >
            <Trans>End</Trans>
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/**
 * The user's own signed-in devices (docs/decisions/sign-in-and-sessions.md § Sessions): this one first, then the
 * others, each with End; "Sign out all other devices" ends every other at once. An ended
 * device's next request is refused and it lands on the sign-in screen.
 */
export function SignedInDevices() {
  const { t } = useLingui();
  const sessions = useMySessions();
  const endSessions = useEndSessions();
  const current = sessions.data?.filter((session) => session.isCurrent) ?? [];
  const others = sessions.data?.filter((session) => !session.isCurrent) ?? [];

  const end = async (session?: SignedInSession) => {
    const device = session?.device;
    const address = session?.address;
    const isConfirmed = await confirmAction(
      session
        ? { message: t`Sign out ${device} (${address})?`, confirmLabel: t`End` }
        : { message: t`Sign out every other device?`, confirmLabel: t`Sign out all` },
    );
    if (!isConfirmed) return;
    try {
      notifySuccess(sessionsEndedText((await endSessions.mutateAsync(session?.sessionId)).ended));
    } catch (error) {
      notifyError(errorMessage(error, t`Something went wrong...`));
    }
  };

  return (
    <Paper withBorder p="md" mt="xl" component="section" aria-labelledby="signed-in-devices-title">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={3} size="h4" id="signed-in-devices-title">
          <Group gap="xs" component="span">
            <IconDevices size={20} aria-hidden />
            <Trans>Signed-in devices</Trans>
          </Group>
        </Title>
        {others.length > 0 && (
          <Button variant="light" color="red" size="compact-sm" onClick={() => void end()}>
            <Trans>Sign out all other devices</Trans>
          </Button>
        )}
      </Group>
      {sessions.isError && (
        <Alert color="red" role="alert">
          <Trans>Your signed-in devices could not be loaded.</Trans>
        </Alert>
      )}
      {sessions.isLoading && (
        <Text c="dimmed">
          <Trans>Loading...</Trans>
        </Text>
      )}
      {sessions.data && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t`Signed-in devices`}>
          {[...current, ...others].map((session) => (
            <DeviceRow key={session.sessionId} session={session} onEnd={() => void end(session)} />
          ))}
        </Stack>
      )}
      {sessions.data && others.length === 0 && (
        <Text size="sm" c="dimmed" mt="xs">
          <Trans>No other device is signed in.</Trans>
        </Text>
      )}
    </Paper>
  );
}
