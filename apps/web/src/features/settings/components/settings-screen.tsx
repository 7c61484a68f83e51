import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Button,
  Flex,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import {
  caseStatuses,
  caseStatusLabels,
  labSettings,
  trackingNumberPlaceholder,
  type CaseStatus,
  type LabSettings,
} from '@portal/contract';
import type { ReactNode } from 'react';
import { PageTitle } from '../../../components/page-title.tsx';
import { notifySaveError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { timeZoneOptions } from '../../../lib/time-zone.ts';
import { useLabSettings, useSaveLabSettings } from '../api/lab-settings.ts';

/** The form's values: a number input left empty is '' (a status without a turnaround target). */
interface SettingsValues {
  turnaroundDays: Record<CaseStatus, number | ''>;
  stepMm: number | '';
  stepDeg: number | '';
  offsetMm: number | '';
  angleDeg: number | '';
  digestHourUtc: string;
  timeZone: string;
  couriers: { name: string; trackingUrl: string }[];
}

const valuesOf = (settings: LabSettings): SettingsValues => ({
  turnaroundDays: Object.fromEntries(
    caseStatuses.map((status) => [status, settings.turnaroundDays[status] ?? '']),
  ) as Record<CaseStatus, number | ''>,
  stepMm: settings.planStepLimits.stepMm,
  stepDeg: settings.planStepLimits.stepDeg,
  offsetMm: settings.offTrackThresholds.offsetMm,
  angleDeg: settings.offTrackThresholds.angleDeg,
  digestHourUtc: String(settings.digestHourUtc),
  timeZone: settings.timeZone,
  couriers: settings.couriers,
});

// An empty number is sent as NaN: the contract's schema names it ("must be a number") as the server would.
const numberOf = (value: number | '') => (value === '' ? Number.NaN : value);

const settingsOf = (values: SettingsValues): LabSettings => ({
  turnaroundDays: Object.fromEntries(
    caseStatuses.flatMap((status) =>
      values.turnaroundDays[status] === '' ? [] : [[status, values.turnaroundDays[status]]],
    ),
  ),
  planStepLimits: { stepMm: numberOf(values.stepMm), stepDeg: numberOf(values.stepDeg) },
  offTrackThresholds: { offsetMm: numberOf(values.offsetMm), angleDeg: numberOf(values.angleDeg) },
  digestHourUtc: Number(values.digestHourUtc),
  timeZone: values.timeZone,
  couriers: values.couriers,
});

/** Where each of the schema's paths is in the form. */
const formPath = (path: PropertyKey[]): string => {
  const [head, ...rest] = path.map(String);
  if (head === 'planStepLimits' || head === 'offTrackThresholds') return rest.join('.');
  return [head, ...rest].join('.');
};

/** The contract's one schema checks the form, so the screen refuses what the server would, in its words. */
function validate(values: SettingsValues): Record<string, string> {
  const result = labSettings.safeParse(settingsOf(values));
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[formPath(issue.path)] ??= serverText(issue.message);
  return errors;
}

/** The hours of a day, '00:00' to '23:00'. */
const hours = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  time: `${String(hour).padStart(2, '0')}:00`,
}));

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Paper component="section" aria-labelledby={id} withBorder p={{ base: 'sm', sm: 'lg' }}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {description}
      </Text>
      {children}
    </Paper>
  );
}

function SettingsForm({ saved }: { saved: LabSettings }) {
  const { t } = useLingui();
  const save = useSaveLabSettings();
  const form = useForm<SettingsValues>({ mode: 'controlled', initialValues: valuesOf(saved), validate });
  const submit = form.onSubmit(async (values) => {
    try {
      const settings = await save.mutateAsync(settingsOf(values));
      form.setInitialValues(valuesOf(settings));
      form.resetDirty(valuesOf(settings));
      notifySuccess(t`Settings saved`);
    } catch (error) {
      notifySaveError(error);
    }
  });
  const hourOptions = hours.map(({ value, time }) => ({ value, label: t`${time} UTC` }));
  const daysSuffix = ` ${t`days`}`;
  const courierLabel = (number: number) => t`Courier ${number}`;
  const trackingLinkLabel = (number: number) => t`Tracking link of courier ${number}`;
  const removeCourierLabel = (number: number) => t`Remove courier ${number}`;
  const limit = (name: keyof SettingsValues, label: string, unit: string, step: number) => (
    <NumberInput
      label={label}
      suffix={unit === '°' ? unit : ` ${unit}`}
      decimalScale={2}
      step={step}
      min={0}
      allowNegative={false}
      {...form.getInputProps(name)}
    />
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Section
          id="settings-turnaround"
          title={t`Turnaround targets`}
          description={t`Days a case may stay in each status before it is overdue (its due date on the lists and the case page, the Overdue filter). Leave a status empty for no target.`}
        >
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {caseStatuses.map((status) => (
              <NumberInput
                key={status}
                label={serverText(caseStatusLabels[status])}
                suffix={daysSuffix}
                min={1}
                max={365}
                allowDecimal={false}
                allowNegative={false}
                {...form.getInputProps(`turnaroundDays.${status}`)}
              />
            ))}
          </SimpleGrid>
        </Section>
        <Section
          id="settings-plans"
          title={t`Treatment plans and progress`}
          description={t`A tooth that moves more than the step limit in one stage is marked in the plan's movement table and named in the plan's findings. A tooth of a progress scan this far from its planned place is off track.`}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            {limit('stepMm', t`Step limit, distance`, 'mm', 0.05)}
            {limit('stepDeg', t`Step limit, rotation`, '°', 0.5)}
            {limit('offsetMm', t`Off track, distance`, 'mm', 0.1)}
            {limit('angleDeg', t`Off track, angle`, '°', 0.5)}
          </SimpleGrid>
        </Section>
        <Section
          id="settings-time"
          title={t`Mail and time`}
          description={t`When the daily digest of case mails goes out, and the lab's time zone: the times of users who have not chosen their own.`}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t`Daily digest`}
              data={hourOptions}
              allowDeselect={false}
              {...form.getInputProps('digestHourUtc')}
            />
            <Select
              label={t`Lab's time zone`}
              data={timeZoneOptions()}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t`No such time zone`}
              {...form.getInputProps('timeZone')}
            />
          </SimpleGrid>
        </Section>
        <Section
          id="settings-couriers"
          title={t`Couriers`}
          description={t`Offered at dispatch; a tracking number of one of them links to its tracking page. Put ${trackingNumberPlaceholder} where the tracking number goes in the link.`}
        >
          <Stack gap="sm">
            {form.values.couriers.map((_courier, index) => (
              <Group key={form.key(`couriers.${index}`)} align="flex-start" wrap="nowrap" gap="xs">
                <Flex direction={{ base: 'column', sm: 'row' }} gap="xs" style={{ flex: 1 }}>
                  <TextInput
                    label={courierLabel(index + 1)}
                    w={{ base: '100%', sm: 200 }}
                    {...form.getInputProps(`couriers.${index}.name`)}
                  />
                  <TextInput
                    label={trackingLinkLabel(index + 1)}
                    placeholder={`https://courier.example/track?number=${trackingNumberPlaceholder}`}
                    style={{ flex: 1 }}
                    {...form.getInputProps(`couriers.${index}.trackingUrl`)}
                  />
                </Flex>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  mt={26}
                  aria-label={removeCourierLabel(index + 1)}
                  onClick={() => form.removeListItem('couriers', index)}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
            {form.errors.couriers && (
              <Text c="red.8" size="sm" role="alert">
                {form.errors.couriers}
              </Text>
            )}
            <Group>
              <Button
                variant="default"
                onClick={() => form.insertListItem('couriers', { name: '', trackingUrl: '' })}
                disabled={form.values.couriers.length >= 20}
              >
                <Trans>Add courier</Trans>
              </Button>
            </Group>
          </Stack>
        </Section>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            <Trans>Save settings</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The lab's settings, the administrator's (docs/decisions/settings.md); each save is in the audit log with its before and after. */
export function SettingsScreen() {
  const { t } = useLingui();
  const settings = useLabSettings();
  return (
    <>
      <PageTitle title={t`Settings`} />
      {settings.isError && (
        <Alert color="red" role="alert">
          <Trans>The settings could not be loaded.</Trans>
        </Alert>
      )}
      {settings.data && <SettingsForm saved={settings.data} />}
    </>
  );
}
