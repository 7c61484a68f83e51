import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Checkbox, Group, Slider, Text } from '@mantine/core';
import type { PlanArch, PlanVersion } from '@portal/contract';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { ViewPresetButtons } from '../../../../components/stl-viewer/view-preset-buttons.tsx';
import { archHiddenBy, type ViewPreset } from '../../../../components/stl-viewer/view-presets.ts';
import { isTouchScreen, patientGhostLabel, patientHowToMove, patientViewLabels } from './patient-words.ts';

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
  forPatient = false,
}: {
  controls: StageControlState;
  isWaiting: boolean;
  onView: (preset: ViewPreset) => void;
  /** A patient link's page: the patient's words, and the gestures of their device. */
  forPatient?: boolean;
}) {
  const { t } = useLingui();
  const { i18n } = useLinguiContext();
  const { counts, lastStage, stage, setStage, isPlaying, setIsPlaying } = controls;
  const viewLabels = forPatient
    ? Object.fromEntries(Object.entries(patientViewLabels).map(([preset, label]) => [preset, i18n._(label)]))
    : undefined;
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
          aria-label={isPlaying ? t`Pause` : t`Play the stages`}
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
          label={(value) => t`Stage ${value}`}
          thumbLabel={t`Stage`}
        />
        <Text size="sm" fw={600} miw={110} aria-live="polite">
          {isWaiting ? (
            <Trans>
              Stage {stage} of {lastStage} (loading…)
            </Trans>
          ) : (
            <Trans>
              Stage {stage} of {lastStage}
            </Trans>
          )}
        </Text>
      </Group>
      <Group gap="lg">
        <Checkbox
          label={t`Upper arch`}
          checked={controls.showUpper}
          disabled={counts.upper === 0}
          onChange={(event) => controls.setShowUpper(event.currentTarget.checked)}
        />
        <Checkbox
          label={t`Lower arch`}
          checked={controls.showLower}
          disabled={counts.lower === 0}
          onChange={(event) => controls.setShowLower(event.currentTarget.checked)}
        />
        <Checkbox
          label={forPatient ? i18n._(patientGhostLabel) : t`Show stage 0 (initial position) ghosted`}
          checked={controls.showGhost}
          onChange={(event) => controls.setShowGhost(event.currentTarget.checked)}
        />
      </Group>
      <ViewPresetButtons onView={showPreset} labels={viewLabels} />
      <Text size="sm" c="dimmed">
        {forPatient
          ? i18n._(patientHowToMove(isTouchScreen()))
          : t`Drag to rotate, scroll or pinch to zoom, right-drag to pan. Stage 0 is the initial position; the ghost shows it over the current stage.`}
      </Text>
    </>
  );
}
