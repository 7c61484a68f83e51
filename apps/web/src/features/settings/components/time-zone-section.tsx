import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Select, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { notifySaveError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { timeZoneOptions } from '../../../lib/time-zone.ts';
import { useSaveTimeZone, useTimeZone } from '../api/time-zone.ts';

function TimeZoneForm({ saved }: { saved: string }) {
  const { t } = useLingui();
  const save = useSaveTimeZone();
  const [timeZone, setTimeZone] = useState(saved);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      notifySuccess(serverText((await save.mutateAsync(timeZone)).message));
    } catch (error) {
      notifySaveError(error);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t`Time zone`}
          data={timeZoneOptions()}
          value={timeZone}
          onChange={(value) => value && setTimeZone(value)}
          searchable
          allowDeselect={false}
          nothingFoundMessage={t`No such time zone`}
          w={{ base: '100%', xs: 320 }}
        />
        <Button type="submit" loading={save.isPending} disabled={timeZone === saved}>
          <Trans>Save time zone</Trans>
        </Button>
      </Group>
    </form>
  );
}

/** The caller's own time zone, on the profile page: the portal and its mails show times in it (docs/decisions/settings.md § Time zones). */
export function TimeZoneSection() {
  const timeZone = useTimeZone();
  const saved = timeZone.data ? (timeZone.data.timeZone ?? timeZone.data.labTimeZone) : undefined;
  return (
    <Paper component="section" aria-labelledby="time-zone-title" withBorder p={{ base: 'sm', sm: 'lg' }} mt="xl">
      <Title order={2} size="h3" id="time-zone-title">
        <Trans>Time zone</Trans>
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        <Trans>The portal and its e-mails show times in this zone.</Trans>
      </Text>
      {saved && <TimeZoneForm key={saved} saved={saved} />}
    </Paper>
  );
}
