import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Fieldset, PasswordInput, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ADMIN_ROLE_ID } from '@portal/contract';
import { useMemo } from 'react';
import { errorMessage, fallbackMessages, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useRoles } from '../api/get-roles.ts';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { statusLabels, statusOptions, type DoctorFormMode, type DoctorFormValues } from './doctor-form-values.ts';

/**
 * Login Information: username, password pair (locked behind 'Change Password' when
 * editing), and for staff the role and status. At registration the role is 19 and hidden;
 * on the profile the doctor can change neither.
 */
export function LoginInformationSection({
  form,
  mode,
  isEditing,
  resetLinkFor,
}: {
  form: UseFormReturnType<DoctorFormValues>;
  mode: DoctorFormMode;
  isEditing: boolean;
  /** Staff other than the administrator: the doctor's id, to e-mail them a reset link instead. */
  resetLinkFor?: number;
}) {
  const { t, i18n } = useLingui();
  const toggleLabel = { 'aria-label': t`Show or hide password` };
  const isStaff = mode === 'staff';
  const roles = useRoles(isStaff);
  const roleOptions = useMemo(
    () =>
      (roles.data ?? [])
        .filter((role) => role.RoleId !== ADMIN_ROLE_ID)
        .map((role) => ({ value: String(role.RoleId), label: role.RoleName })),
    [roles.data],
  );
  const isPasswordLocked = form.values.isEdit;
  const lockedPlaceholder = isPasswordLocked ? '********' : undefined;
  // One's own password or e-mail changes only with the current password (the server checks it).
  const isEmailChanged = form.values.email.trim().toLowerCase() !== form.getInitialValues().email.trim().toLowerCase();
  const asksCurrentPassword = mode === 'profile' && (!isPasswordLocked || isEmailChanged);

  return (
    <Fieldset legend={t`Login Information`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t`Username`}
          withAsterisk
          autoComplete="username"
          disabled={mode === 'profile'}
          {...form.getInputProps('username')}
        />
        {isStaff && (
          <Select
            label={t`Role`}
            placeholder={t`Choose a role`}
            withAsterisk
            data={roleOptions}
            {...form.getInputProps('roleId')}
          />
        )}
        <PasswordInput
          label={t`Password`}
          withAsterisk={!isPasswordLocked}
          autoComplete="new-password"
          disabled={isPasswordLocked}
          placeholder={lockedPlaceholder}
          visibilityToggleButtonProps={toggleLabel}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t`Confirm Password`}
          withAsterisk={!isPasswordLocked}
          autoComplete="new-password"
          disabled={isPasswordLocked}
          placeholder={lockedPlaceholder}
          visibilityToggleButtonProps={toggleLabel}
          {...form.getInputProps('confirmPassword')}
        />
        {asksCurrentPassword && (
          <PasswordInput
            label={t`Current Password`}
            description={t`Needed to change your password or e-mail`}
            withAsterisk
            autoComplete="current-password"
            visibilityToggleButtonProps={toggleLabel}
            {...form.getInputProps('currentPassword')}
          />
        )}
        {isStaff && (
          <Select
            label={t`Status`}
            withAsterisk
            data={statusOptions.map((value) => ({ value, label: i18n._(statusLabels[value]) }))}
            {...form.getInputProps('isActive')}
          />
        )}
      </SimpleGrid>
      {isEditing && isPasswordLocked && resetLinkFor === undefined && (
        <Anchor component="button" type="button" size="sm" mt="xs" onClick={() => form.setFieldValue('isEdit', false)}>
          <Trans>Change Password</Trans>
        </Anchor>
      )}
      {resetLinkFor !== undefined && <SendResetLink doctorId={resetLinkFor} />}
    </Fieldset>
  );
}

/** The administrator sets a doctor's password; other staff have the link e-mailed to the doctor. */
function SendResetLink({ doctorId }: { doctorId: number }) {
  const request = useRequestPasswordReset();
  const send = () =>
    request.mutate(doctorId, {
      onSuccess: (answer) => notifySuccess(serverText(answer.message)),
      onError: (error) => notifyError(errorMessage(error, fallbackMessages.saveFailed)),
    });
  return (
    <Text size="sm" mt="xs">
      <Trans>
        Only the administrator can set a doctor&apos;s password.{' '}
        <Anchor component="button" type="button" size="sm" onClick={send} disabled={request.isPending}>
          E-mail the doctor a reset link
        </Anchor>
      </Trans>
    </Text>
  );
}
