import { ActionIcon, Checkbox, Group, Slider, Text } from '@mantine/core';
import type { PlanArch, PlanVersion } from '@portal/contract';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { ViewPresetButtons } from '../../../../components/stl-viewer/view-preset-buttons.tsx';
import { archHiddenBy, type ViewPreset } from '../../../../components/stl-viewer/view-presets.ts';

/** How long each stage shows while the plan plays. */
export const playStepMs = 700;

/** The stage shown, playing or not, and which arches and the ghost are on: what both stage scenes keep. */
export function useStageControls(plan: { summary: Pick<PlanVersion['summary'], 'upperStages' | 'lowerStages'> }) {
  const counts: Record<PlanArch, number> = { upper: plan.summary.upperStages, lower: plan.summary.lowerStages };
  const [stage, setStage] = useState(0);
  const [isPlaying, setIsPlaying] = useState(false);
  const [showUpper, setShowUpper] = useState(counts.upper > 0);
  const [showLower, setShowLower] = useState(counts.lower > 0);
  const [showGhost, setShowGhost] = useState(true);
  return {
    counts,
    lastStage: Math.max(counts.upper, counts.lower),
    stage,
    setStage,
    isPlaying,
    setIsPlaying,
    showUpper,
    setShowUpper,
    showLower,
    setShowLower,
    showGhost,
    setShowGhost,
  };
}

export type StageControlState = ReturnType<typeof useStageControls>;

/**
 * Play and pause, the stage slider, the arch and ghost toggles, the view presets (`onView`
 * turns the model; an occlusal view also hides the other arch), and how to move the view.
 */
export function StageControls({
  controls,
  isWaiting,
  onView,
}: {
  controls: StageControlState;
  isWaiting: boolean;
  onView: (preset: ViewPreset) => void;
}) {
  const { counts, lastStage, stage, setStage, isPlaying, setIsPlaying } = controls;
  const showPreset = (preset: ViewPreset) => {
    const hidden = archHiddenBy(preset);
    if (hidden && counts[hidden === 'upper' ? 'lower' : 'upper'] > 0) {
      controls.setShowUpper(hidden !== 'upper');
      controls.setShowLower(hidden !== 'lower');
    }
    onView(preset);
  };
  return (
    <>
      <Group gap="md" wrap="nowrap" align="center">
        <ActionIcon
          size="lg"
          variant="filled"
          aria-label={isPlaying ? 'Pause' : 'Play the stages'}
          onClick={() => {
            if (!isPlaying && stage >= lastStage) setStage(0);
            setIsPlaying((playing) => !playing);
          }}
        >
          {isPlaying ? <IconPlayerPauseFilled size={18} aria-hidden /> : <IconPlayerPlayFilled size={18} aria-hidden />}
        </ActionIcon>
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={lastStage}
          step={1}
          value={stage}
          onChange={(value) => {
            setIsPlaying(false);
            setStage(value);
          }}
          marks={lastStage <= 30 ? Array.from({ length: lastStage + 1 }, (_, value) => ({ value })) : undefined}
          label={(value) => `Stage ${value}`}
          thumbLabel="Stage"
        />
        <Text size="sm" fw={600} miw={110} aria-live="polite">
          Stage {stage} of {lastStage}
          {isWaiting ? ' (loading…)' : ''}
        </Text>
      </Group>
      <Group gap="lg">
        <Checkbox
          label="Upper arch"
          checked={controls.showUpper}
          disabled={counts.upper === 0}
          onChange={(event) => controls.setShowUpper(event.currentTarget.checked)}
        />
        <Checkbox
          label="Lower arch"
          checked={controls.showLower}
          disabled={counts.lower === 0}
          onChange={(event) => controls.setShowLower(event.currentTarget.checked)}
        />
        <Checkbox
          label="Show stage 0 (initial position) ghosted"
          checked={controls.showGhost}
          onChange={(event) => controls.setShowGhost(event.currentTarget.checked)}
        />
      </Group>
      <ViewPresetButtons onView={showPreset} />
      <Text size="sm" c="dimmed">
        Drag to rotate, scroll or pinch to zoom, right-drag to pan. Stage 0 is the initial position; the ghost shows it
        over the current stage.
      </Text>
    </>
  );
}
