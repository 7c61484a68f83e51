import { useLingui } from '@lingui/react/macro';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { resetMessages, resetPasswordForm } from '@portal/contract';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { localizedResolver } from '../../../lib/localized-resolver.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useResetPassword } from '../api/reset-password.ts';

/** New Password and Confirm Password for a verified link; success goes to sign in. An invitation's sets a first password. */
export function ResetPasswordForm({ token, isInvitation = false }: { token: string; isInvitation?: boolean }) {
  const { t } = useLingui();
  const toggleLabel = { 'aria-label': t`Show or hide password` };
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: localizedResolver(resetPasswordForm),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async ({ newPassword }) => {
    try {
      const answer = await reset.mutateAsync({ token, newPassword });
      if (!answer.success) {
        notifyError(isInvitation ? t`Unable to set your password` : t`Unable to reset password`);
        return;
      }
      notifySuccess(
        isInvitation ? t`Your password is set. You can now sign in.` : serverText(resetMessages.resetSucceeded),
      );
      void navigate(paths.login, { replace: true });
    } catch (error) {
      // A password the server refuses (a common one) is shown under its field.
      if (error instanceof ApiError && error.fieldErrors.newPassword) {
        form.setErrors({ newPassword: serverText(error.fieldErrors.newPassword) });
        return;
      }
      // The server answers a used or expired token with success false (as a 400).
      notifyError(
        error instanceof ApiError
          ? isInvitation
            ? t`Unable to set your password`
            : t`Unable to reset password`
          : t`Something went wrong`,
      );
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <PasswordInput
          label={isInvitation ? t`Password` : t`New Password`}
          withAsterisk
          autoComplete="new-password"
          visibilityToggleButtonProps={toggleLabel}
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput
          label={t`Confirm Password`}
          withAsterisk
          autoComplete="new-password"
          visibilityToggleButtonProps={toggleLabel}
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" loading={reset.isPending} mt="sm">
          {isInvitation ? t`Set Password` : t`Reset Password`}
        </Button>
      </Stack>
    </form>
  );
}
