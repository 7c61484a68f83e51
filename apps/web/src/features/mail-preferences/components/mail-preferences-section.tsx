import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { mailDeliveries, mailKinds, type MailChoices, type MailDelivery, type MailKind } from '@portal/contract';
import { partsInZone } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { displayTimeZone } from '../../../lib/time-zone.ts';
import { useMailPreferences, useSaveMailPreferences } from '../api/mail-preferences.ts';

const kindLabels: Record<MailKind, { label: MessageDescriptor; description: MessageDescriptor }> = {
  messages: { label: msg`Messages`, description: msg`A new message about a case` },
  plans: { label: msg`Treatment plans`, description: msg`A plan version ready for review` },
  status: { label: msg`Case status`, description: msg`A case moved to another status, or a new case` },
  progress: {
    label: msg`Progress scans`,
    description: msg`A progress scan compared with the plan, or one that could not be`,
  },
};
const deliveryLabels: Record<MailDelivery, MessageDescriptor> = {
  immediate: msg`Immediately`,
  digest: msg`In the daily digest`,
  off: msg`Off`,
};

/** '09:00' and 'Europe/Berlin': the digest's hour today in the user's time zone, or null when that is UTC. */
function digestHourInZone(hourUtc: number): { time: string; zone: string } | null {
  const zone = displayTimeZone();
  if (zone === 'UTC') return null;
  const today = new Date();
  const at = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), hourUtc));
  const { hour, minute } = partsInZone(at, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return { time: `${hour}:${minute}`, zone };
}

function MailPreferencesForm({
  saved,
  digestHourUtc,
  kinds,
}: {
  saved: MailChoices;
  digestHourUtc: number;
  kinds: readonly MailKind[];
}) {
  const { t, i18n } = useLingui();
  const save = useSaveMailPreferences();
  const form = useForm<MailChoices>({ mode: 'controlled', initialValues: saved });
  const submit = form.onSubmit(async (values) => {
    try {
      notifySuccess(serverText((await save.mutateAsync(values)).message));
      form.resetDirty();
    } catch (error) {
      notifyError(errorMessage(error, t`Something went wrong...`));
    }
  });
  const digestTime = `${String(digestHourUtc).padStart(2, '0')}:00`;
  const hourUtc = t`${digestTime} UTC`;
  const inZone = digestHourInZone(digestHourUtc);
  const localTime = inZone?.time;
  const zone = inZone?.zone;
  const hour = inZone ? t`${hourUtc} (${localTime} in ${zone})` : hourUtc;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {kinds.map((kind) => (
          <Radio.Group
            key={kind}
            label={i18n._(kindLabels[kind].label)}
            description={i18n._(kindLabels[kind].description)}
            {...form.getInputProps(kind)}
          >
            <Group gap="md" mt="xs" wrap="wrap">
              {mailDeliveries.map((delivery) => (
                <Radio key={delivery} value={delivery} label={i18n._(deliveryLabels[delivery])} />
              ))}
            </Group>
          </Radio.Group>
        ))}
      </Stack>
      <Text size="sm" c="dimmed" mt="md">
        <Trans>
          The daily digest is one e-mail at {hour} listing what you chose to get that way. Mails about your account
          itself (activation, password resets, a changed password or e-mail address) always come at once and cannot be
          turned off.
        </Trans>
      </Text>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={save.isPending}>
          <Trans>Save e-mail preferences</Trans>
        </Button>
      </Group>
    </form>
  );
}

/**
 * The caller's own e-mail preferences, on the profile page (docs/decisions/mail.md § E-mail
 * preferences). Progress scans are mailed to the lab only: the doctor's side is not asked about them.
 */
export function MailPreferencesSection({ isLab = false }: { isLab?: boolean }) {
  const preferences = useMailPreferences();
  return (
    <Paper component="section" aria-labelledby="mail-preferences-title" withBorder p={{ base: 'sm', sm: 'lg' }} mt="xl">
      <Title order={2} size="h3" id="mail-preferences-title">
        <Trans>E-mail preferences</Trans>
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        <Trans>How you hear of your cases by e-mail.</Trans>
      </Text>
      {preferences.isError && (
        <Alert color="red" role="alert">
          <Trans>Your e-mail preferences could not be loaded.</Trans>
        </Alert>
      )}
      {preferences.data && (
        <MailPreferencesForm
          saved={{
            messages: preferences.data.messages,
            plans: preferences.data.plans,
            status: preferences.data.status,
            progress: preferences.data.progress,
          }}
          digestHourUtc={preferences.data.digestHourUtc}
          kinds={isLab ? mailKinds : mailKinds.filter((kind) => kind !== 'progress')}
        />
      )}
    </Paper>
  );
}
