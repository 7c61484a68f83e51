import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Checkbox, Grid, Group, List, Select, Stack, Text } from '@mantine/core';
import { toothLabel, type NumberingSystem, type PlanComment, type PlanVersion } from '@portal/contract';
import { IconRuler } from '@tabler/icons-react';
import { lazy, startTransition, Suspense, useEffect, useMemo, useState } from 'react';
import { ViewerModal } from '../../../components/stl-viewer/viewer-modal.tsx';
import { useMovements } from '../api/get-movements.ts';
import { usePlanComments } from '../api/plan-comments.ts';
import { compareVersions } from '../lib/compare-versions.ts';
import { formatDecimal } from '../../../lib/format-number.ts';
import { toothMarkers } from '../lib/tooth-markers.ts';
import { MovementTable } from './movement-table.tsx';
import type { CaseViewer } from '../../../lib/case-viewer.ts';
import { PlanComments } from './plan-comments.tsx';
import { PlanSummaryView } from './plan-summary.tsx';
import type { Pin } from './stage-viewer/create-stage-viewer.ts';
import type { PickedPoint } from './stage-viewer/plan-view-scene.tsx';
import { useToothNotation } from '../../../lib/tooth-notation.ts';

// three.js is large: it loads only when someone opens the viewer.
const StageScene = lazy(() => import('./stage-viewer/stage-scene.tsx'));

type Tool = 'none' | 'pin' | 'measure';

const pinsOf = (comments: PlanComment[] | undefined, isEarlier: boolean): Pin[] =>
  (comments ?? []).map((comment) => ({
    commentId: comment.commentId,
    number: comment.number,
    point: comment.point,
    arch: comment.arch,
    stage: comment.stage,
    kind: comment.resolvedAt !== null ? 'resolved' : isEarlier ? 'earlier' : 'open',
  }));

/**
 * False for the modal's first render, true just after it: the comments, summary, movement
 * table and the versions to compare with mount in a second step, so that opening the viewer
 * is two short tasks on the page's main thread instead of one long one
 * (docs/benchmarks.md § Viewer on real-sized meshes).
 */
function useSecondStep(): boolean {
  const [isReached, setIsReached] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setIsReached(true)), 0);
    return () => clearTimeout(timer);
  }, []);
  return isReached;
}

const distance = ([a, b]: number[][]) => Math.hypot(a![0]! - b![0]!, a![1]! - b![1]!, a![2]! - b![2]!);

/** What changed from the overlaid version to this one (lib/compare-versions.ts), its teeth drawn see-through in violet. */
function VersionChanges({ from, to, system }: { from: PlanVersion; to: PlanVersion; system: NumberingSystem }) {
  const { t } = useLingui();
  const fromVersion = from.version;
  const fromMovements = useMovements(from.caseId, from.planId);
  const toMovements = useMovements(to.caseId, to.planId);
  const changes = compareVersions(
    { version: from.version, summary: from.summary, movements: fromMovements.data },
    { version: to.version, summary: to.summary, movements: toMovements.data },
    (universal) => toothLabel(universal, system),
  );
  return (
    <Stack gap={4} component="section" aria-label={t`Changes from version ${fromVersion}`}>
      <Text size="sm" fw={600}>
        <Trans>
          Version {fromVersion} overlaid in violet. Changes from version {fromVersion}:
        </Trans>
      </Text>
      <List size="sm" spacing={2}>
        {changes.map((change) => (
          <List.Item key={change}>{change}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** The movement map's scale: blue for points that stay, red for the one that moves most. */
function MapLegend({ largestMm }: { largestMm: number }) {
  const { t } = useLingui();
  const largest = formatDecimal(largestMm, 2);
  const zero = formatDecimal(0, 0);
  return (
    <Group gap={6} role="img" aria-label={t`Colour scale: blue ${zero} mm to red ${largest} mm`}>
      <Text size="xs">{t`${zero} mm`}</Text>
      <Box
        w={120}
        h={10}
        style={{
          borderRadius: 4,
          background: 'linear-gradient(to right, hsl(238 85% 50%), hsl(119 85% 50%), hsl(60 85% 50%), hsl(0 85% 50%))',
        }}
      />
      <Text size="xs">{t`${largest} mm`}</Text>
    </Group>
  );
}

/**
 * One version in the 3D viewer: its pinned comments (and the version before's, to check
 * they were answered) beside the model with the summary, a measuring tool, and the tooth
 * movements below. Pinning and measuring take clicks on the teeth; one tool at a time.
 */
export function PlanViewerModal({
  plan,
  versions,
  numbering: caseNumbering,
  viewer,
  onClose,
}: {
  plan: PlanVersion;
  /** Every version of the case's plan: the one before this one has the comments it should answer; any other can be overlaid. */
  versions: PlanVersion[];
  numbering: NumberingSystem;
  viewer: CaseViewer;
  onClose: () => void;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const numbering = useToothNotation(caseNumbering);
  const { t } = useLingui();
  const version = plan.version;
  // Mantine returns focus when a modal's `opened` turns false; this one is unmounted instead,
  // so it gives focus back to what had it when it opened (the version's View in 3D button).
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    },
    [opener],
  );
  const previous = versions.find((version) => version.version === plan.version - 1);
  const others = versions.filter((version) => version.planId !== plan.planId);
  const [compareId, setCompareId] = useState<number>();
  const compareWith = others.find((version) => version.planId === compareId);
  const comments = usePlanComments(plan.caseId, plan.planId);
  const earlierComments = usePlanComments(plan.caseId, previous?.planId ?? 0, previous !== undefined);
  const [tool, setTool] = useState<Tool>('none');
  const [picked, setPicked] = useState<PickedPoint>();
  const [measured, setMeasured] = useState<number[][]>([]);
  const [requestedStage, setRequestedStage] = useState<{ stage: number }>();
  const [shownStage, setShownStage] = useState(0);
  const [selectedPin, setSelectedPin] = useState<number>();
  const lastStage = Math.max(plan.summary.upperStages, plan.summary.lowerStages);
  const [isMapOn, setIsMapOn] = useState(false);
  const [mapLargestMm, setMapLargestMm] = useState<number>();
  const movements = useMovements(plan.caseId, plan.planId);
  const markers = useMemo(() => toothMarkers(plan.summary, movements.data), [plan.summary, movements.data]);
  const pins = useMemo(
    () => [...pinsOf(comments.data, false), ...pinsOf(previous ? earlierComments.data : undefined, true)],
    [comments.data, earlierComments.data, previous],
  );
  const choose = (next: Tool) => {
    setTool(next);
    setPicked(undefined);
    setMeasured([]);
  };
  const onPick =
    tool === 'pin' && !picked
      ? setPicked
      : tool === 'measure'
        ? ({ point }: PickedPoint) => setMeasured((before) => (before.length === 1 ? [before[0]!, point] : [point]))
        : undefined;
  const showStage = (stage: number) => setRequestedStage({ stage });
  /** A comment chosen in the list: its pin selected, and its stage shown when this version has it. */
  const selectComment = (comment: PlanComment) => {
    setSelectedPin(comment.commentId);
    if (comment.stage <= lastStage) showStage(comment.stage);
  };
  const isSecondStep = useSecondStep();
  const measuredMm = measured.length === 2 ? formatDecimal(distance(measured), 2) : '';
  const previousVersion = previous?.version;
  return (
    <ViewerModal onClose={onClose} title={t`Treatment plan version ${version}`} size="90rem">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="xs">
            <Suspense
              fallback={
                <Text role="status" py="xl" ta="center">
                  <Trans>Loading the 3D viewer…</Trans>
                </Text>
              }
            >
              <StageScene
                plan={plan}
                pins={pins}
                selectedPin={selectedPin}
                onSelectPin={(commentId) => {
                  const comment = [...(comments.data ?? []), ...(earlierComments.data ?? [])].find(
                    (found) => found.commentId === commentId,
                  );
                  if (comment) selectComment(comment);
                }}
                onPick={onPick}
                requestedStage={requestedStage}
                measured={measured}
                compareWith={compareWith}
                markers={markers}
                onStage={setShownStage}
                movementMap={isMapOn}
                onMovementMap={setMapLargestMm}
              />
            </Suspense>
            <Group gap="xs">
              <Button
                size="xs"
                variant={tool === 'measure' ? 'filled' : 'default'}
                leftSection={<IconRuler size={14} aria-hidden />}
                aria-pressed={tool === 'measure'}
                onClick={() => choose(tool === 'measure' ? 'none' : 'measure')}
              >
                {tool === 'measure' ? t`Stop measuring` : t`Measure`}
              </Button>
              {tool === 'measure' && (
                <Text size="sm" role="status">
                  {measured.length === 0
                    ? t`Click two points on the teeth.`
                    : measured.length === 1
                      ? t`Click the second point.`
                      : t`Distance: ${measuredMm} mm`}
                </Text>
              )}
              {/* Its dropdown is placed (floating-ui) when it mounts: a second-step part. */}
              {isSecondStep && others.length > 0 && (
                <Select
                  size="xs"
                  aria-label={t`Compare with another version`}
                  placeholder={t`Compare with…`}
                  clearable
                  data={others.map((other) => {
                    const otherVersion = other.version;
                    return { value: String(other.planId), label: t`Version ${otherVersion}` };
                  })}
                  value={compareId === undefined ? null : String(compareId)}
                  onChange={(value) => setCompareId(value === null ? undefined : Number(value))}
                />
              )}
            </Group>
            <Group gap="sm">
              <Checkbox
                label={t`Movement map (the last stage, coloured by how far each point moved)`}
                checked={isMapOn}
                onChange={(event) => setIsMapOn(event.currentTarget.checked)}
              />
              {isMapOn && mapLargestMm !== undefined && <MapLegend largestMm={mapLargestMm} />}
            </Group>
            {compareWith && <VersionChanges from={compareWith} to={plan} system={numbering} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {isSecondStep && (
            <Stack gap="md">
              <PlanComments
                caseId={plan.caseId}
                plan={plan}
                comments={comments.data}
                viewer={viewer}
                system={numbering}
                isPinning={tool === 'pin'}
                onPinning={(isPinning) => choose(isPinning ? 'pin' : 'none')}
                picked={picked}
                onPicked={setPicked}
                lastStage={lastStage}
                selected={selectedPin}
                onSelect={selectComment}
              />
              {previous && (earlierComments.data?.length ?? 0) > 0 && (
                <PlanComments
                  title={t`Comments on version ${previousVersion}`}
                  caseId={plan.caseId}
                  plan={previous}
                  comments={earlierComments.data}
                  viewer={viewer}
                  system={numbering}
                  lastStage={lastStage}
                  selected={selectedPin}
                  onSelect={selectComment}
                />
              )}
              <PlanSummaryView summary={plan.summary} stage={shownStage} />
            </Stack>
          )}
        </Grid.Col>
        <Grid.Col span={12}>
          {isSecondStep && (
            <MovementTable caseId={plan.caseId} planId={plan.planId} system={numbering} findings={plan.findings} />
          )}
        </Grid.Col>
      </Grid>
    </ViewerModal>
  );
}
