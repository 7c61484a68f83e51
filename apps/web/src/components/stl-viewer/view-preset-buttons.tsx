import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { useId } from 'react';
import { viewPresetLabels, viewPresets, type ViewPreset } from './view-presets.ts';

/** The view presets as buttons: each turns the view to its side of the teeth; `labels` words them for a patient. */
export function ViewPresetButtons({
  onView,
  labels = {},
}: {
  onView: (preset: ViewPreset) => void;
  labels?: Partial<Record<ViewPreset, string>>;
}) {
  const { i18n } = useLingui();
  const labelId = useId();
  return (
    <Group gap={6} role="group" aria-labelledby={labelId}>
      <Text size="sm" fw={500} id={labelId}>
        <Trans>View</Trans>
      </Text>
      {viewPresets.map((preset) => (
        <Button key={preset} size="compact-sm" variant="default" onClick={() => onView(preset)}>
          {labels[preset] ?? i18n._(viewPresetLabels[preset])}
        </Button>
      ))}
    </Group>
  );
}
