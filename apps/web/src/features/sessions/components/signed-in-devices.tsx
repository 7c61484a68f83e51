import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SignedInSession } from '@portal/contract';
import { IconDevices, IconLogout } from '@tabler/icons-react';
import { confirmAction } from '../../../components/confirm-delete.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useEndSessions } from '../api/end-sessions.ts';
import { useMySessions } from '../api/get-my-sessions.ts';

function DeviceRow({ session, onEnd }: { session: SignedInSession; onEnd: () => void }) {
  return (
    <Paper component="li" withBorder p="sm" aria-label={session.device}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs">
            <Text fw={600}>{session.device}</Text>
            {session.isCurrent && (
              <Badge color="teal.9" variant="filled">
                This device
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" title={session.userAgent}>
            Signed in {formatDateTime(session.createdAt)}
          </Text>
          <Text size="sm" c="dimmed">
            Last seen {formatDateTime(session.lastSeenAt)} from {session.address}
          </Text>
        </Stack>
        {!session.isCurrent && (
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            leftSection={<IconLogout size={14} aria-hidden />}
            aria-label={`End ${session.device}, last seen ${formatDateTime(session.lastSeenAt)}`}
            onClick={onEnd}
          >
            End
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
  const sessions = useMySessions();
  const endSessions = useEndSessions();
  const current = sessions.data?.filter((session) => session.isCurrent) ?? [];
  const others = sessions.data?.filter((session) => !session.isCurrent) ?? [];

  const end = async (session?: SignedInSession) => {
    const isConfirmed = await confirmAction(
      session
        ? { message: `Sign out ${session.device} (${session.address})?`, confirmLabel: 'End' }
        : { message: 'Sign out every other device?', confirmLabel: 'Sign out all' },
    );
    if (!isConfirmed) return;
    try {
      notifySuccess((await endSessions.mutateAsync(session?.sessionId)).message);
    } catch (error) {
      notifyError(errorMessage(error, 'Something went wrong...'));
    }
  };

  return (
    <Paper withBorder p="md" mt="xl" component="section" aria-labelledby="signed-in-devices-title">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={3} size="h4" id="signed-in-devices-title">
          <Group gap="xs" component="span">
            <IconDevices size={20} aria-hidden />
            Signed-in devices
          </Group>
        </Title>
        {others.length > 0 && (
          <Button variant="light" color="red" size="compact-sm" onClick={() => void end()}>
            Sign out all other devices
          </Button>
        )}
      </Group>
      {sessions.isError && (
        <Alert color="red" role="alert">
          Your signed-in devices could not be loaded.
        </Alert>
      )}
      {sessions.isLoading && <Text c="dimmed">Loading...</Text>}
      {sessions.data && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Signed-in devices">
          {[...current, ...others].map((session) => (
            <DeviceRow key={session.sessionId} session={session} onEnd={() => void end(session)} />
          ))}
        </Stack>
      )}
      {sessions.data && others.length === 0 && (
        <Text size="sm" c="dimmed" mt="xs">
          No other device is signed in.
        </Text>
      )}
    </Paper>
  );
}
