import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { assistantInviteRequest } from '@portal/contract';
import { IconMailForward } from '@tabler/icons-react';
import { localizedResolver } from '../../../lib/localized-resolver.ts';
import { notifyOutcome } from '../../../lib/notify.ts';
import { useInviteAssistant } from '../api/invite-assistant.ts';

const empty = { email: '', firstName: '', lastName: '' };

/**
 * Invites an assistant by e-mail: a new one is mailed a link to set their password, one who
 * already assists another doctor is told by mail (the server's message says which).
 */
export function InviteAssistantForm() {
  const { t } = useLingui();
  const invite = useInviteAssistant();
  const form = useForm({
    mode: 'controlled',
    initialValues: empty,
    validate: localizedResolver(assistantInviteRequest),
    validateInputOnChange: true,
  });

  const submit = form.onSubmit(async (input) => {
    if (await notifyOutcome(invite.mutateAsync(input), form.setErrors)) form.reset();
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-assistant">
      <Title order={3} size="h4" mb="sm" id="invite-assistant">
        <Trans>Invite an assistant</Trans>
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t`Email`} type="email" withAsterisk autoComplete="off" {...form.getInputProps('email')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t`First Name`} withAsterisk autoComplete="off" {...form.getInputProps('firstName')} />
            <TextInput label={t`Last Name`} withAsterisk autoComplete="off" {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={invite.isPending} leftSection={<IconMailForward size={16} aria-hidden />}>
              <Trans>Send invitation</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
