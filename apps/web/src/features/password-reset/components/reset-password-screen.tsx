import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { resetMessages } from '@portal/contract';
import { IconDental } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { notifyError } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useVerifyResetToken } from '../api/verify-reset-token.ts';
import { ResetPasswordForm } from './reset-password-form.tsx';
import { LanguagePicker } from '../../../components/language-picker.tsx';

/**
 * /reset-password?token=: verifying, then the form for a valid link; a missing or
 * refused token is toasted and sends the person to the sign-in screen. An invitation's link
 * welcomes the invited person and names who invited them (docs/decisions/accounts.md § Invitation links).
 */
export function ResetPasswordScreen() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') || null;
  const verification = useVerifyResetToken(token);
  const isInvalid = token === null || verification.isError || verification.data?.success === false;
  const invitation = verification.data?.invitation;
  const invitedBy = invitation?.invitedBy ?? t`The lab`;
  const inviter = invitation?.clinic ? `${invitedBy} (${invitation.clinic})` : invitedBy;

  useEffect(() => {
    if (!isInvalid) return;
    notifyError(token === null ? t`Invalid reset link` : t`Invalid or expired link`);
    void navigate(paths.login, { replace: true });
  }, [isInvalid, token, navigate]);

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Group justify="flex-end" mb="xs">
          <LanguagePicker />
        </Group>
        <Stack align="center" gap="xs" mb="lg">
          <IconDental size={48} aria-hidden />
          <Title order={1} size="h2" ta="center">
            {invitation ? t`Welcome to Aligner Portal` : verification.data ? t`Reset Password` : t`Set your password`}
          </Title>
          {invitation && (
            <Text ta="center">
              <Trans>
                {inviter} invited you to Aligner Portal. Set your password to sign in; your username is the e-mail
                address the invitation came to.
              </Trans>
            </Text>
          )}
        </Stack>
        {isInvalid ? (
          <Text ta="center">{serverText(resetMessages.linkInvalid)}</Text>
        ) : verification.data && token ? (
          <ResetPasswordForm token={token} isInvitation={invitation !== undefined} />
        ) : (
          <Text ta="center" role="status">
            <Trans>Verifying reset link...</Trans>
          </Text>
        )}
      </Paper>
    </Center>
  );
}
