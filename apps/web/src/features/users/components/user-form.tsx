import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DOCTOR_ROLE_ID, userForm, type Role, type User } from '@portal/contract';
import { useState } from 'react';
import { PageTitle } from '../../../components/page-title.tsx';
import { ProfilePictureInput } from '../../../components/profile-picture-input.tsx';
import { localizedResolver } from '../../../lib/localized-resolver.ts';
import { fallbackMessages, notifySaveError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUser } from '../api/update-user.ts';

/**
 * Adds a Web user, who is e-mailed an invitation to set their own password, or edits the one
 * given (an empty password then keeps the current one).
 */
export function UserForm({ user, roles, onClose }: { user?: User; roles: Role[]; onClose: () => void }) {
  const { t } = useLingui();
  const toggleLabel = { 'aria-label': t`Show or hide password` };
  const session = useSession();
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const [profilePic, setProfilePic] = useState<File | null>(null);
  const [isStoredPictureRemoved, setStoredPictureRemoved] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      username: user?.UserName ?? '',
      roleId: user ? String(user.RoleId) : (null as string | null),
      firstname: user?.FirstName ?? '',
      lastname: user?.LastName ?? '',
      password: '',
      confirmPassword: '',
      currentPassword: '',
      email: user?.Email ?? '',
      mobileNo: user?.MobileNo ?? '',
      isEdit: user !== undefined,
    },
    validate: localizedResolver(userForm),
    validateInputOnChange: true,
  });
  // Doctors get their role on the Doctors screen; the server refuses it here.
  const roleOptions = roles
    .filter((role) => role.RoleId !== DOCTOR_ROLE_ID)
    .map((role) => ({ value: String(role.RoleId), label: role.RoleName }));

  // One's own password or e-mail changes only with the current password (docs/decisions/sign-in-and-sessions.md § Changing one's own password or e-mail).
  const isOwnAccount = user !== undefined && session?.userId === user.UserId;
  const isEmailChanged = form.values.email.trim().toLowerCase() !== (user?.Email ?? '').trim().toLowerCase();
  const asksCurrentPassword = isOwnAccount && (form.values.password !== '' || isEmailChanged);

  const submit = form.onSubmit(
    async ({ confirmPassword: _confirm, isEdit: _isEdit, currentPassword, roleId, ...fields }) => {
      const input = { ...fields, roleId: roleId ?? '', profilePic };
      try {
        const answer = user
          ? await updateUser.mutateAsync({
              ...input,
              ...(asksCurrentPassword ? { currentPassword } : {}),
              userId: user.UserId,
              removeProfilePic: isStoredPictureRemoved && !profilePic,
            })
          : await createUser.mutateAsync(input);
        notifySuccess(serverText(answer.message) || (user ? fallbackMessages.updated : fallbackMessages.saved));
        onClose();
      } catch (error) {
        notifySaveError(error, form.setErrors);
      }
    },
  );

  return (
    <>
      <PageTitle title={user ? t`Edit User` : t`Add User`} />
      <Paper withBorder p="md" maw={900}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t`Username`} withAsterisk autoComplete="off" {...form.getInputProps('username')} />
              <Select
                label={t`Role`}
                placeholder={t`Choose a role`}
                withAsterisk
                data={roleOptions}
                {...form.getInputProps('roleId')}
              />
              <TextInput label={t`First Name`} withAsterisk {...form.getInputProps('firstname')} />
              <TextInput label={t`Last Name`} withAsterisk {...form.getInputProps('lastname')} />
              {user && (
                <>
                  <PasswordInput
                    label={t`Password`}
                    autoComplete="new-password"
                    description={t`Leave empty to keep the current password`}
                    visibilityToggleButtonProps={toggleLabel}
                    {...form.getInputProps('password')}
                  />
                  <PasswordInput
                    label={t`Confirm Password`}
                    autoComplete="new-password"
                    visibilityToggleButtonProps={toggleLabel}
                    {...form.getInputProps('confirmPassword')}
                  />
                </>
              )}
              <TextInput
                label={t`Email`}
                type="email"
                withAsterisk
                autoComplete="off"
                {...form.getInputProps('email')}
              />
              {asksCurrentPassword && (
                <PasswordInput
                  label={t`Current Password`}
                  description={t`Needed to change your own password or e-mail`}
                  withAsterisk
                  autoComplete="current-password"
                  visibilityToggleButtonProps={toggleLabel}
                  {...form.getInputProps('currentPassword')}
                />
              )}
              <TextInput
                label={t`Mobile No`}
                type="tel"
                withAsterisk
                autoComplete="off"
                {...form.getInputProps('mobileNo')}
              />
            </SimpleGrid>
            {!user && (
              <Text size="sm" c="dimmed">
                <Trans>An e-mail invites the new user to set their own password (the link lasts 7 days).</Trans>
              </Text>
            )}
            <ProfilePictureInput
              value={profilePic}
              storedPicture={user?.ProfilePic ?? null}
              isStoredRemoved={isStoredPictureRemoved}
              onChange={setProfilePic}
              onRemove={() => setStoredPictureRemoved(true)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit">
                <Trans>Submit</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
