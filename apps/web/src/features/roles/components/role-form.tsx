import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ADMIN_ROLE_ID, DOCTOR_ROLE_ID, roleRequest, type Role } from '@portal/contract';
import { PageTitle } from '../../../components/page-title.tsx';
import { localizedResolver } from '../../../lib/localized-resolver.ts';
import { fallbackMessages, notifySaveError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useCreateRole } from '../api/create-role.ts';
import { useUpdateRole } from '../api/update-role.ts';

/** Adds a role, or edits the one given. */
export function RoleForm({ role, onClose }: { role?: Role; onClose: () => void }) {
  const { t } = useLingui();
  // The server keeps the built-in roles' names (their description may change).
  const isBuiltIn = role?.RoleId === ADMIN_ROLE_ID || role?.RoleId === DOCTOR_ROLE_ID;
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const form = useForm({
    mode: 'controlled',
    initialValues: { roleName: role?.RoleName ?? '', description: role?.Description ?? '' },
    validate: localizedResolver(roleRequest),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async (input) => {
    try {
      const answer = role
        ? await updateRole.mutateAsync({ roleId: role.RoleId, input })
        : await createRole.mutateAsync(input);
      notifySuccess(serverText(answer.message) || (role ? fallbackMessages.updated : fallbackMessages.saved));
      onClose();
    } catch (error) {
      notifySaveError(error, form.setErrors);
    }
  });

  return (
    <>
      <PageTitle title={role ? t`Edit Role` : t`Add Role`} />
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t`Role Name`}
              withAsterisk
              disabled={isBuiltIn}
              description={isBuiltIn ? t`This role is built in and cannot be renamed` : undefined}
              {...form.getInputProps('roleName')}
            />
            <Textarea label={t`Description`} autosize minRows={3} {...form.getInputProps('description')} />
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
