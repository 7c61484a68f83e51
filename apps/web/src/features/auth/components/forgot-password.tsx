import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
// The sign-in page loads only its own part of Mantine's stylesheet (main.tsx): the Alert comes with this chunk.
import '@mantine/core/styles/Alert.css';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { requestPasswordLink } from '../api/forgot-password.ts';

/**
 * "Forgot password?" in place of the sign-in form: a username or an e-mail address, and the
 * server's one answer for every name (docs/decisions/accounts.md § Forgot password).
 */
export default function ForgotPassword({ username, onBack }: { username: string; onBack: () => void }) {
  const { t } = useLingui();
  const [name, setName] = useState(username);
  const [isChecked, setChecked] = useState(false);
  const [isSending, setSending] = useState(false);
  const [answer, setAnswer] = useState<{ message: string; isError: boolean }>();
  const nameError = isChecked && name.trim() === '' ? t`Username or e-mail is required` : undefined;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (name.trim() === '') return;
    setSending(true);
    try {
      setAnswer({ message: serverText((await requestPasswordLink({ username: name })).message), isError: false });
    } catch (error) {
      setAnswer({ message: errorMessage(error, t`Something went wrong...`), isError: true });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="forgot-password-title">
      <Stack>
        <Title order={2} size="h4" id="forgot-password-title">
          <Trans>Forgot password?</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            Type your username or the e-mail address of your account. We e-mail it a link to set a new password.
          </Trans>
        </Text>
        <TextInput
          label={t`Username or e-mail`}
          autoComplete="username"
          withAsterisk
          value={name}
          error={nameError}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        {answer && (
          <Alert color={answer.isError ? 'red' : 'teal'} role={answer.isError ? 'alert' : 'status'}>
            {answer.message}
          </Alert>
        )}
        <Group justify="space-between" mt="sm">
          <Button variant="default" onClick={onBack}>
            <Trans>Back to sign in</Trans>
          </Button>
          <Button type="submit" loading={isSending}>
            <Trans>Send link</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
