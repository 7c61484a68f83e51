import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { planArches, type PlanVersion, type PlanViewAnswer } from '@portal/contract';
import { useEffect, useState, type ComponentProps } from 'react';
import { fetchPlanViewState } from '../../lib/load-plan-view.ts';
import { PlanViewScene } from './plan-view-scene.tsx';
import { StageFilesScene } from './stage-files-scene.tsx';

type Source = { kind: 'checking' } | { kind: 'copy' } | { kind: 'files'; note: MessageDescriptor | string };

/** Why the stage files are shown: the copy of an arch is being made, or could not be made. */
function filesNote(state: PlanViewAnswer | undefined): MessageDescriptor {
  const states = planArches.flatMap((arch) => (state?.[arch] ? [state[arch].state] : []));
  return states.includes('pending')
    ? msg`Showing the stage files: the plan's lighter copy is still being made.`
    : msg`Showing the stage files: no lighter copy could be made of this plan.`;
}

/**
 * The 3D stage viewer of one plan version (three.js lives in this lazily loaded chunk): on
 * the server's copy of the plan when it is ready (plan-view-scene.tsx), otherwise on the
 * stage files themselves, saying so (stage-files-scene.tsx).
 */
export default function StageScene({
  plan,
  ...viewerProps
}: { plan: PlanVersion } & Omit<ComponentProps<typeof PlanViewScene>, 'plan' | 'onUnavailable'>) {
  const { i18n } = useLinguiContext();
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
          <Trans>Loading the plan…</Trans>
        </Text>
      );
    case 'copy':
      return (
        <PlanViewScene plan={plan} {...viewerProps} onUnavailable={(note) => setSource({ kind: 'files', note })} />
      );
    case 'files':
      return <StageFilesScene plan={plan} note={typeof source.note === 'string' ? source.note : i18n._(source.note)} />;
  }
}
