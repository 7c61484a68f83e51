import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { phoneMediaQuery } from '../../../../components/phone-columns.tsx';
import { serverText } from '../../../../lib/server-text.ts';
import { toothChartRows, toothDescription, toothLabel, type NumberingSystem } from '../../lib/tooth-numbering.ts';
import { useToothNotation } from '../../../../lib/tooth-notation.ts';

interface ToothChartProps {
  system: NumberingSystem;
  selected: number[];
  onToggle: (tooth: number) => void;
}

// Every tooth is a target of at least 44x44 px (WCAG 2.5.5). Eight teeth each side of the
// midline, which is drawn as a thin column; on a phone each side of an arch is a row of its own.
const minTarget = 44;
// eslint-disable-next-line lingui/no-unlocalized-strings -- CSS grid tracks, not words
const archColumns = `repeat(8, minmax(${minTarget}px, 1fr)) 2px repeat(8, minmax(${minTarget}px, 1fr))`;
// eslint-disable-next-line lingui/no-unlocalized-strings -- CSS grid tracks, not words
const halfArchColumns = `repeat(8, minmax(${minTarget}px, 1fr))`;

function Tooth({ tooth, isUpper, system, selected, onToggle }: ToothChartProps & { tooth: number; isUpper: boolean }) {
  const label = toothLabel(tooth, system);
  return (
    <Box
      component="label"
      py={4}
      style={{
        display: 'flex',
        flexDirection: isUpper ? 'column' : 'column-reverse',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 4,
        minWidth: minTarget,
        minHeight: minTarget,
        cursor: 'pointer',
      }}
    >
      <Text size="xs" fw={500} aria-hidden>
        {label}
      </Text>
      {/* The box itself 24 px (WCAG 2.2's minimum target), not only the label round it. */}
      <Checkbox
        size="md"
        aria-label={`${label}: ${toothDescription(tooth)}`}
        checked={selected.includes(tooth)}
        onChange={() => onToggle(tooth)}
      />
    </Box>
  );
}

function Arch({ teeth, isUpper, ...chart }: ToothChartProps & { teeth: number[]; isUpper: boolean }) {
  const { t } = useLingui();
  const name = isUpper ? t`Upper arch` : t`Lower arch`;
  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  const [right, left] = [teeth.slice(0, 8), teeth.slice(8)];
  const teethOf = (half: number[]) =>
    half.map((tooth) => <Tooth key={tooth} tooth={tooth} isUpper={isUpper} {...chart} />);
  if (isPhone) {
    return (
      <Stack role="group" aria-label={name} gap={2}>
        {[right, left].map((half, index) => (
          <Box key={index} style={{ display: 'grid', gridTemplateColumns: halfArchColumns }}>
            {teethOf(half)}
          </Box>
        ))}
      </Stack>
    );
  }
  return (
    <Box role="group" aria-label={name} style={{ display: 'grid', gridTemplateColumns: archColumns, columnGap: 2 }}>
      {teethOf(right)}
      <Box bg="gray.5" aria-hidden />
      {teethOf(left)}
    </Box>
  );
}

/**
 * A simple dental chart: the upper arch over the lower, the patient's right on the left (on a
 * phone: above).
 */
function ToothChart(chart: ToothChartProps) {
  return (
    <Stack gap={0}>
      <Group justify="space-between" mb={4}>
        <Text size="xs" c="dimmed">
          <Text span hiddenFrom="sm" inherit>
            <Trans>Patient&apos;s right first, then left</Trans>
          </Text>
          <Text span visibleFrom="sm" inherit>
            <Trans>Patient&apos;s right</Trans>
          </Text>
        </Text>
        <Text size="xs" c="dimmed" visibleFrom="sm">
          <Trans>Patient&apos;s left</Trans>
        </Text>
      </Group>
      <Arch teeth={toothChartRows.upper} isUpper {...chart} />
      <Box h={2} bg="gray.5" my={4} aria-hidden />
      <Arch teeth={toothChartRows.lower} isUpper={false} {...chart} />
    </Stack>
  );
}

/** The 'Select Tooth' picker: each tick toggles a tooth of the field at once. */
export function ToothPickerModal({
  opened,
  onClose,
  fieldLabel,
  ...caseChart
}: ToothChartProps & { opened: boolean; onClose: () => void; fieldLabel: string }) {
  const { t } = useLingui();
  const isPhone = useMediaQuery(phoneMediaQuery) ?? false;
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const chart = { ...caseChart, system: useToothNotation(caseChart.system) };
  const system = serverText(chart.system);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t`Select Tooth`}
      size="xl"
      centered
      fullScreen={isPhone}
      padding={isPhone ? 'xs' : 'md'}
    >
      <Text size="sm" mb="sm">
        <Trans>
          {fieldLabel} ({system} numbering)
        </Trans>
      </Text>
      <ToothChart {...chart} />
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>
          <Trans>Done</Trans>
        </Button>
      </Group>
    </Modal>
  );
}
