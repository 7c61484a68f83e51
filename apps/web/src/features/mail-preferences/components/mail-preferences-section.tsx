import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { mailDeliveries, mailKinds, type MailDelivery, type MailKind, type MailPreferences } from '@portal/contract';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useMailPreferences, useSaveMailPreferences } from '../api/mail-preferences.ts';

const kindLabels: Record<MailKind, { label: string; description: string }> = {
  messages: { label: 'Messages', description: 'A new message about a case' },
  plans: { label: 'Treatment plans', description: 'A plan version ready for review' },
  status: { label: 'Case status', description: 'A case moved to another status, or a new case' },
};
const deliveryLabels: Record<MailDelivery, string> = {
  immediate: 'Immediately',
  digest: 'In the daily digest',
  off: 'Off',
};

function MailPreferencesForm({ saved, digestHourUtc }: { saved: MailPreferences; digestHourUtc: number }) {
  const save = useSaveMailPreferences();
  const form = useForm<MailPreferences>({ mode: 'controlled', initialValues: saved });
  const submit = form.onSubmit(async (values) => {
    try {
      notifySuccess((await save.mutateAsync(values)).message);
      form.resetDirty();
    } catch (error) {
      notifyError(errorMessage(error, 'Something went wrong...'));
    }
  });
  const hour = `${String(digestHourUtc).padStart(2, '0')}:00 UTC`;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {mailKinds.map((kind) => (
          <Radio.Group
            key={kind}
            label={kindLabels[kind].label}
            description={kindLabels[kind].description}
            {...form.getInputProps(kind)}
          >
            <Group gap="md" mt="xs" wrap="wrap">
              {mailDeliveries.map((delivery) => (
                <Radio key={delivery} value={delivery} label={deliveryLabels[delivery]} />
              ))}
            </Group>
          </Radio.Group>
        ))}
      </Stack>
      <Text size="sm" c="dimmed" mt="md">
        The daily digest is one e-mail at {hour} listing what you chose to get that way. Mails about your account itself
        (activation, password resets, a changed password or e-mail address) always come at once and cannot be turned
        off.
      </Text>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={save.isPending}>
          Save e-mail preferences
        </Button>
      </Group>
    </form>
  );
}

/** The caller's own e-mail preferences, on the profile page (docs/decisions/mail.md § E-mail preferences). */
export function MailPreferencesSection() {
  const preferences = useMailPreferences();
  return (
    <Paper component="section" aria-labelledby="mail-preferences-title" withBorder p={{ base: 'sm', sm: 'lg' }} mt="xl">
      <Title order={2} size="h3" id="mail-preferences-title">
        E-mail preferences
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        How you hear of your cases by e-mail.
      </Text>
      {preferences.isError && (
        <Alert color="red" role="alert">
          Your e-mail preferences could not be loaded.
        </Alert>
      )}
      {preferences.data && (
        <MailPreferencesForm
          saved={{
            messages: preferences.data.messages,
            plans: preferences.data.plans,
            status: preferences.data.status,
          }}
          digestHourUtc={preferences.data.digestHourUtc}
        />
      )}
    </Paper>
  );
}
