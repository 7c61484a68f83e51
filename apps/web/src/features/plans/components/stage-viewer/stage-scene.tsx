import { Text } from '@mantine/core';
import { planArches, type PlanVersion, type PlanViewAnswer } from '@portal/contract';
import { useEffect, useState } from 'react';
import { fetchPlanViewState } from '../../lib/load-plan-view.ts';
import type { Pin, ToothMarker } from './create-stage-viewer.ts';
import { PlanViewScene, type PickedPoint } from './plan-view-scene.tsx';
import { StageFilesScene } from './stage-files-scene.tsx';

type Source = { kind: 'checking' } | { kind: 'copy' } | { kind: 'files'; note: string };

/** Why the stage files are shown: the copy of an arch is being made, or could not be made. */
function filesNote(state: PlanViewAnswer | undefined): string {
  const states = planArches.flatMap((arch) => (state?.[arch] ? [state[arch].state] : []));
  return states.includes('pending')
    ? "Showing the stage files: the plan's lighter copy is still being made."
    : 'Showing the stage files: no lighter copy could be made of this plan.';
}

/**
 * The 3D stage viewer of one plan version (three.js lives in this lazily loaded chunk): on
 * the server's copy of the plan when it is ready (plan-view-scene.tsx), otherwise on the
 * stage files themselves, saying so (stage-files-scene.tsx).
 */
export default function StageScene({
  plan,
  pins,
  onPick,
  requestedStage,
  measured,
  compareWith,
  markers,
  onStage,
  movementMap,
  onMovementMap,
}: {
  plan: PlanVersion;
  pins?: Pin[];
  onPick?: (picked: PickedPoint) => void;
  requestedStage?: { stage: number };
  measured?: number[][];
  compareWith?: PlanVersion;
  markers?: ToothMarker[];
  onStage?: (stage: number) => void;
  movementMap?: boolean;
  onMovementMap?: (largestMm: number) => void;
}) {
  const [source, setSource] = useState<Source>({ kind: 'checking' });

  useEffect(() => {
    const controller = new AbortController();
    const arches = planArches.filter((arch) =>
      arch === 'upper' ? plan.summary.upperStages > 0 : plan.summary.lowerStages > 0,
    );
    fetchPlanViewState(plan, controller.signal).then(
      (state) =>
        setSource(
          state && arches.every((arch) => state[arch]?.state === 'ready')
            ? { kind: 'copy' }
            : { kind: 'files', note: filesNote(state) },
        ),
      () => {
        if (!controller.signal.aborted) setSource({ kind: 'files', note: filesNote(undefined) });
      },
    );
    return () => controller.abort();
  }, [plan.caseId, plan.planId]);

  switch (source.kind) {
    case 'checking':
      return (
        <Text role="status" py="xl" ta="center">
          Loading the plan…
        </Text>
      );
    case 'copy':
      return (
        <PlanViewScene
          plan={plan}
          pins={pins}
          onPick={onPick}
          requestedStage={requestedStage}
          measured={measured}
          compareWith={compareWith}
          markers={markers}
          onStage={onStage}
          movementMap={movementMap}
          onMovementMap={onMovementMap}
          onUnavailable={(note) => setSource({ kind: 'files', note })}
        />
      );
    case 'files':
      return <StageFilesScene plan={plan} note={source.note} />;
  }
}
