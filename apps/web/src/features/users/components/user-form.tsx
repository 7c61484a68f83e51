import { Button, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { DOCTOR_ROLE_ID, userForm, type Role, type User } from '@portal/contract';
import { useState } from 'react';
import { PageTitle } from '../../../components/page-title.tsx';
import { ProfilePictureInput } from '../../../components/profile-picture-input.tsx';
import { fallbackMessages, notifySaveError, notifySuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUser } from '../api/update-user.ts';

const toggleLabel = { 'aria-label': 'Show or hide password' };

/** Adds a Web user, or edits the one given (an empty password then keeps the current one). */
export function UserForm({ user, roles, onClose }: { user?: User; roles: Role[]; onClose: () => void }) {
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
    validate: schemaResolver(userForm, { sync: true }),
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
        notifySuccess(answer.message || (user ? fallbackMessages.updated : fallbackMessages.saved));
        onClose();
      } catch (error) {
        notifySaveError(error, form.setErrors);
      }
    },
  );

  return (
    <>
      <PageTitle title={user ? 'Edit User' : 'Add User'} />
      <Paper withBorder p="md" maw={900}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Username" withAsterisk autoComplete="off" {...form.getInputProps('username')} />
              <Select
                label="Role"
                placeholder="Choose a role"
                withAsterisk
                data={roleOptions}
                {...form.getInputProps('roleId')}
              />
              <TextInput label="First Name" withAsterisk {...form.getInputProps('firstname')} />
              <TextInput label="Last Name" withAsterisk {...form.getInputProps('lastname')} />
              <PasswordInput
                label="Password"
                withAsterisk={!user}
                autoComplete="new-password"
                description={user ? 'Leave empty to keep the current password' : undefined}
                visibilityToggleButtonProps={toggleLabel}
                {...form.getInputProps('password')}
              />
              <PasswordInput
                label="Confirm Password"
                withAsterisk={!user}
                autoComplete="new-password"
                visibilityToggleButtonProps={toggleLabel}
                {...form.getInputProps('confirmPassword')}
              />
              <TextInput label="Email" type="email" withAsterisk autoComplete="off" {...form.getInputProps('email')} />
              {asksCurrentPassword && (
                <PasswordInput
                  label="Current Password"
                  description="Needed to change your own password or e-mail"
                  withAsterisk
                  autoComplete="current-password"
                  visibilityToggleButtonProps={toggleLabel}
                  {...form.getInputProps('currentPassword')}
                />
              )}
              <TextInput
                label="Mobile No"
                type="tel"
                withAsterisk
                autoComplete="off"
                {...form.getInputProps('mobileNo')}
              />
            </SimpleGrid>
            <ProfilePictureInput
              value={profilePic}
              storedPicture={user?.ProfilePic ?? null}
              isStoredRemoved={isStoredPictureRemoved}
              onChange={setProfilePic}
              onRemove={() => setStoredPictureRemoved(true)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit">Submit</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
