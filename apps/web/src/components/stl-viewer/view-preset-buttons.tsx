import { Button, Group, Text } from '@mantine/core';
import { useId } from 'react';
import { viewPresetLabels, viewPresets, type ViewPreset } from './view-presets.ts';

/** The view presets as buttons: each turns the view to its side of the teeth. */
export function ViewPresetButtons({ onView }: { onView: (preset: ViewPreset) => void }) {
  const labelId = useId();
  return (
    <Group gap={6} role="group" aria-labelledby={labelId}>
      <Text size="sm" fw={500} id={labelId}>
        View
      </Text>
      {viewPresets.map((preset) => (
        <Button key={preset} size="compact-sm" variant="default" onClick={() => onView(preset)}>
          {viewPresetLabels[preset]}
        </Button>
      ))}
    </Group>
  );
}
