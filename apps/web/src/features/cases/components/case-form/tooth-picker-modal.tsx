import { Box, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { toothChartRows, toothDescription, toothLabel, type NumberingSystem } from '../../lib/tooth-numbering.ts';

interface ToothChartProps {
  system: NumberingSystem;
  selected: number[];
  onToggle: (tooth: number) => void;
}

// Eight teeth each side of the midline, which is drawn as a thin column.
const archColumns = 'repeat(8, minmax(0, 1fr)) 2px repeat(8, minmax(0, 1fr))';

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
        gap: 4,
        cursor: 'pointer',
      }}
    >
      <Text size="xs" fw={500} aria-hidden>
        {label}
      </Text>
      <Checkbox
        size="xs"
        aria-label={`${label}: ${toothDescription(tooth)}`}
        checked={selected.includes(tooth)}
        onChange={() => onToggle(tooth)}
      />
    </Box>
  );
}

function Arch({ teeth, name, ...chart }: ToothChartProps & { teeth: number[]; name: string }) {
  const isUpper = name === 'Upper arch';
  return (
    <Box role="group" aria-label={name} style={{ display: 'grid', gridTemplateColumns: archColumns, columnGap: 2 }}>
      {teeth.slice(0, 8).map((tooth) => (
        <Tooth key={tooth} tooth={tooth} isUpper={isUpper} {...chart} />
      ))}
      <Box bg="gray.5" aria-hidden />
      {teeth.slice(8).map((tooth) => (
        <Tooth key={tooth} tooth={tooth} isUpper={isUpper} {...chart} />
      ))}
    </Box>
  );
}

/** A simple dental chart: the upper arch over the lower, the patient's right on the left. */
function ToothChart(chart: ToothChartProps) {
  return (
    <Stack gap={0}>
      <Group justify="space-between" mb={4}>
        <Text size="xs" c="dimmed">
          Patient&apos;s right
        </Text>
        <Text size="xs" c="dimmed">
          Patient&apos;s left
        </Text>
      </Group>
      <Arch teeth={toothChartRows.upper} name="Upper arch" {...chart} />
      <Box h={2} bg="gray.5" my={4} aria-hidden />
      <Arch teeth={toothChartRows.lower} name="Lower arch" {...chart} />
    </Stack>
  );
}

/** The 'Select Tooth' picker: each tick toggles a tooth of the field at once. */
export function ToothPickerModal({
  opened,
  onClose,
  fieldLabel,
  ...chart
}: ToothChartProps & { opened: boolean; onClose: () => void; fieldLabel: string }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Select Tooth" size="lg" centered>
      <Text size="sm" mb="sm">
        {fieldLabel} ({chart.system} numbering)
      </Text>
      <ToothChart {...chart} />
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Modal>
  );
}
