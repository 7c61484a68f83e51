import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { registrationSucceeded } from '@portal/contract';
import { IconCircleCheck, IconDental } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LanguagePicker } from '../../../components/language-picker.tsx';
import { paths } from '../../../config/paths.ts';
import { notifySuccess, toastMs } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { DoctorForm } from './doctor-form.tsx';

/** Doctor self-registration: the doctor form on a card; afterwards the green notice. */
export function RegisterScreen() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <Container component="main" size="lg" py="xl" px={{ base: 'xs', sm: 'md' }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }}>
        {/* The language chosen here is the new account's (sent with the registration). */}
        <Group justify="flex-end">
          <LanguagePicker />
        </Group>
        <Stack align="center" gap={4} mb="lg">
          <IconDental size={40} aria-hidden />
          <Title order={1} size="h2">
            <Trans>Doctor Registration</Trans>
          </Title>
          <Text ta="center">
            <Trans>Create your account; it is activated after review.</Trans>
          </Text>
        </Stack>
        {notice ? (
          <Stack>
            {/* Dark text on the light green: Mantine's green text fails axe's contrast check. */}
            <Alert
              color="green"
              variant="light"
              title={t`Registration received`}
              icon={<IconCircleCheck aria-hidden />}
              role="status"
              styles={{
                title: { color: 'var(--mantine-color-text)' },
                message: { color: 'var(--mantine-color-text)' },
              }}
            >
              {notice}
            </Alert>
            <Group justify="center">
              <Button onClick={() => void navigate(paths.login)}>
                <Trans>Go to Sign In</Trans>
              </Button>
            </Group>
          </Stack>
        ) : (
          <DoctorForm
            mode="register"
            onSaved={(message) => {
              const text = message || serverText(registrationSucceeded);
              notifySuccess(text, toastMs.registration);
              setNotice(text);
              window.scrollTo({ top: 0 });
            }}
            onCancel={() => void navigate(paths.login)}
          />
        )}
      </Paper>
    </Container>
  );
}
