import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Container, Group, Stack, Title } from '@mantine/core';
// Plain texts only (no zod): the message the server refuses such a session with.
import { messages } from '@portal/contract/session';
import { IconDental } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { serverText } from '../../lib/server-text.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { useMySecondFactors } from '../../features/auth/api/my-second-factors.ts';
import { sessionStore } from '../../lib/session.ts';

const SecurityScreen = lazy(async () => ({
  default: (await import('../../features/auth/components/security-screen.tsx')).SecurityScreen,
}));

/**
 * What a signed-in user sees while the server refuses their session until they set up a
 * second factor (their role came to require one after they signed in): the Security screen
 * alone, with no menu whose pages would all be refused, and a way out. Once a factor is set
 * up they go on to the page they asked for, after they have noted their recovery codes.
 */
export function EnrolmentLayout() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const logout = useLogout();
  const queryClient = useQueryClient();
  const mine = useMySecondFactors().data;
  const hasFactor = mine ? mine.hasTotp || mine.passkeys.length > 0 : false;

  const carryOn = async () => {
    // What the refused session could not read is read again.
    await queryClient.invalidateQueries();
    sessionStore.enrolmentDone();
  };

  return (
    <Box component="main" bg="gray.0" mih="100vh" py="lg">
      <Container size="md">
        <Stack>
          <Group justify="space-between">
            <Group gap="xs">
              <IconDental size={32} aria-hidden />
              <Title order={1} size="h3">
                <Trans>Aligner Portal</Trans>
              </Title>
            </Group>
            <Button
              variant="default"
              onClick={() => void logout().then(() => navigate(paths.login, { replace: true }))}
            >
              <Trans>Sign out</Trans>
            </Button>
          </Group>
          <Alert color="teal" title={t`Set up a second factor to continue`} role="status">
            {serverText(messages.enrolmentRequired)}{' '}
            <Trans>The rest of the portal opens once an authenticator app or a passkey is set up.</Trans>
          </Alert>
          {hasFactor && (
            <Group>
              <Button onClick={() => void carryOn()}>
                <Trans>Continue to the portal</Trans>
              </Button>
            </Group>
          )}
          <Suspense>
            <SecurityScreen />
          </Suspense>
        </Stack>
      </Container>
    </Box>
  );
}
