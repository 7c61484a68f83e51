import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { resetMessages } from '@portal/contract';
import { IconDental } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useVerifyResetToken } from '../api/verify-reset-token.ts';
import { ResetPasswordForm } from './reset-password-form.tsx';

/**
 * /reset-password?token=: verifying, then the form for a valid link; a missing or
 * refused token is toasted and sends the person to the sign-in screen.
 */
export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') || null;
  const verification = useVerifyResetToken(token);
  const isInvalid = token === null || verification.isError || verification.data?.success === false;

  useEffect(() => {
    if (!isInvalid) return;
    notifyError(token === null ? 'Invalid reset link' : 'Invalid or expired link');
    void navigate(paths.login, { replace: true });
  }, [isInvalid, token, navigate]);

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack align="center" gap="xs" mb="lg">
          <IconDental size={48} aria-hidden />
          <Title order={1} size="h2">
            Reset Password
          </Title>
        </Stack>
        {isInvalid ? (
          <Text ta="center">{resetMessages.linkInvalid}</Text>
        ) : verification.data && token ? (
          <ResetPasswordForm token={token} />
        ) : (
          <Text ta="center" role="status">
            Verifying reset link...
          </Text>
        )}
      </Paper>
    </Center>
  );
}
