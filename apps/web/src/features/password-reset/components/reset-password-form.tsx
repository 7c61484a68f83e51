import { Button, PasswordInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { resetMessages, resetPasswordForm } from '@portal/contract';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useResetPassword } from '../api/reset-password.ts';

const toggleLabel = { 'aria-label': 'Show or hide password' };

/** New Password and Confirm Password for a verified link; success goes to sign in. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: schemaResolver(resetPasswordForm, { sync: true }),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async ({ newPassword }) => {
    try {
      const answer = await reset.mutateAsync({ token, newPassword });
      if (!answer.success) {
        notifyError('Unable to reset password');
        return;
      }
      notifySuccess(resetMessages.resetSucceeded);
      void navigate(paths.login, { replace: true });
    } catch (error) {
      // A password the server refuses (a common one) is shown under its field.
      if (error instanceof ApiError && error.fieldErrors.newPassword) {
        form.setErrors({ newPassword: error.fieldErrors.newPassword });
        return;
      }
      // The server answers a used or expired token with success false (as a 400).
      notifyError(error instanceof ApiError ? 'Unable to reset password' : 'Something went wrong');
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <PasswordInput
          label="New Password"
          withAsterisk
          autoComplete="new-password"
          visibilityToggleButtonProps={toggleLabel}
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput
          label="Confirm Password"
          withAsterisk
          autoComplete="new-password"
          visibilityToggleButtonProps={toggleLabel}
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" loading={reset.isPending} mt="sm">
          Reset Password
        </Button>
      </Stack>
    </form>
  );
}
