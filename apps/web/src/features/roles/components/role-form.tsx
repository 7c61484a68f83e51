import { Button, Group, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { ADMIN_ROLE_ID, DOCTOR_ROLE_ID, roleRequest, type Role } from '@portal/contract';
import { PageTitle } from '../../../components/page-title.tsx';
import { fallbackMessages, notifySaveError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateRole } from '../api/create-role.ts';
import { useUpdateRole } from '../api/update-role.ts';

/** Adds a role, or edits the one given. */
export function RoleForm({ role, onClose }: { role?: Role; onClose: () => void }) {
  // The server keeps the built-in roles' names (their description may change).
  const isBuiltIn = role?.RoleId === ADMIN_ROLE_ID || role?.RoleId === DOCTOR_ROLE_ID;
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const form = useForm({
    mode: 'controlled',
    initialValues: { roleName: role?.RoleName ?? '', description: role?.Description ?? '' },
    validate: schemaResolver(roleRequest, { sync: true }),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async (input) => {
    try {
      const answer = role
        ? await updateRole.mutateAsync({ roleId: role.RoleId, input })
        : await createRole.mutateAsync(input);
      notifySuccess(answer.message || (role ? fallbackMessages.updated : fallbackMessages.saved));
      onClose();
    } catch (error) {
      notifySaveError(error, form.setErrors);
    }
  });

  return (
    <>
      <PageTitle title={role ? 'Edit Role' : 'Add Role'} />
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label="Role Name"
              withAsterisk
              disabled={isBuiltIn}
              description={isBuiltIn ? 'This role is built in and cannot be renamed' : undefined}
              {...form.getInputProps('roleName')}
            />
            <Textarea label="Description" autosize minRows={3} {...form.getInputProps('description')} />
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
