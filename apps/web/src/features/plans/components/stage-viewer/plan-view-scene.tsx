import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Progress, Stack, Text } from '@mantine/core';
import { planArches, type PlanArch, type PlanVersion } from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { disposePlanArchView, loadPlanArchView } from '../../lib/load-plan-view.ts';
import { createPlanViewer, type Pin, type PlanViewer, type ToothMarker } from './create-stage-viewer.ts';
import { playStepMs, StageControls, useStageControls } from './stage-controls.tsx';

/**
 * The stage viewer on the server's copy of the plan: each arch's teeth and their place at
 * every stage arrive in one small file, loaded with a progress bar; after that, stepping and
 * playing only move the teeth. When the copy cannot be loaded, `onUnavailable` hands over to
 * the stage files with the reason. Closing stops the loading and frees the geometries.
 */
/** Where a click on a tooth landed: the arch, the point in the plan's coordinates, and the stage shown. */
export interface PickedPoint {
  arch: PlanArch;
  point: number[];
  stage: number;
}

const noPins: Pin[] = [];
const noMarkers: ToothMarker[] = [];

/** What the viewer needs of a version: a patient link's page has no more. */
export type ViewedPlan = Pick<PlanVersion, 'caseId' | 'planId' | 'version'> & {
  summary: Pick<PlanVersion['summary'], 'upperStages' | 'lowerStages'>;
};
const noPoints: number[][] = [];

export function PlanViewScene({
  plan,
  onUnavailable,
  pins = noPins,
  selectedPin,
  onSelectPin,
  onPick,
  requestedStage,
  measured = noPoints,
  compareWith,
  meshUrl,
  markers = noMarkers,
  onStage,
  movementMap = false,
  onMovementMap,
  forPatient = false,
}: {
  plan: ViewedPlan;
  onUnavailable: (why: string) => void;
  /** Comments' numbered pins shown on the model. */
  pins?: Pin[];
  /** The comment selected (in the list or by a click on its pin): its pin drawn larger, ringed. */
  selectedPin?: number;
  /** A click on a pin selects its comment. */
  onSelectPin?: (commentId: number) => void;
  /** Set while the doctor is pinning a comment: a click on a tooth (not a drag) picks its point. */
  onPick?: (picked: PickedPoint) => void;
  /** A stage to show, asked for from outside (a comment's); a new object each time it is asked. */
  requestedStage?: { stage: number };
  /** The measuring tool's points (none, one, or the two measured between). */
  measured?: number[][];
  /** Another version of the case's plan, overlaid see-through at the same stage. */
  compareWith?: PlanVersion;
  /** Where each arch's GLB is, when not at the plan's own route (a patient link's). */
  meshUrl?: (arch: PlanArch) => string;
  /** IPR contacts and attachments on their teeth, from their stages on. */
  markers?: ToothMarker[];
  /** Told the stage shown, as it changes: the side table follows it. */
  onStage?: (stage: number) => void;
  /** The movement map on: the last stage, each point coloured by how far it moved from stage 0. */
  movementMap?: boolean;
  /** Told the most any point moves (mm) when the map is drawn: the legend's top. */
  onMovementMap?: (largestMm: number) => void;
  /** A patient link's page: the controls in the patient's words. */
  forPatient?: boolean;
}) {
  const { t } = useLingui();
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<PlanViewer | null>(null);
  const [percent, setPercent] = useState(0);
  const [isReady, setIsReady] = useState(false);
  const [webGlError, setWebGlError] = useState(false);
  const controls = useStageControls(plan);
  const { counts, lastStage, stage, setStage, isPlaying, setIsPlaying, showUpper, showLower, showGhost } = controls;

  useEffect(() => {
    const controller = new AbortController();
    const arches = planArches.filter((arch) => counts[arch] > 0);
    const shares = arches.map(() => 0);
    const loads = arches.map((arch, index) =>
      loadPlanArchView(
        plan,
        arch,
        controller.signal,
        (share) => {
          shares[index] = share;
          if (!controller.signal.aborted)
            setPercent(Math.round((100 * shares.reduce((sum, part) => sum + part, 0)) / arches.length));
        },
        meshUrl?.(arch),
      ),
    );
    void Promise.allSettled(loads).then((results) => {
      const loaded = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const dispose = () => loaded.forEach(disposePlanArchView);
      if (controller.signal.aborted) return dispose();
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) {
        dispose();
        const reason = (failed.reason as Error).message;
        onUnavailable(t`Showing the stage files: the plan's lighter copy could not be loaded (${reason}).`);
        return;
      }
      const version = plan.version;
      try {
        viewerRef.current = createPlanViewer(
          containerRef.current!,
          loaded,
          t`3D view of treatment plan version ${version}`,
        );
        setIsReady(true);
      } catch {
        dispose();
        setWebGlError(true);
      }
    });
    return () => {
      controller.abort();
      viewerRef.current?.dispose();
      viewerRef.current = null;
    };
  }, [plan.caseId, plan.planId]);

  useEffect(() => {
    viewerRef.current?.show(stage, { upper: showUpper, lower: showLower, ghost: showGhost });
  }, [isReady, stage, showUpper, showLower, showGhost]);

  useEffect(() => {
    viewerRef.current?.setPins(pins, selectedPin);
  }, [isReady, pins, selectedPin]);

  useEffect(() => {
    viewerRef.current?.setMeasure(measured);
  }, [isReady, measured]);

  useEffect(() => {
    viewerRef.current?.setMarkers(markers);
  }, [isReady, markers]);

  useEffect(() => onStage?.(stage), [stage]);

  useEffect(() => {
    if (!isReady || !viewerRef.current) return;
    const largest = viewerRef.current.setMovementMap(movementMap);
    if (movementMap) {
      setIsPlaying(false);
      setStage(lastStage);
      onMovementMap?.(largest);
    }
  }, [isReady, movementMap]);

  useEffect(() => {
    if (!isReady) return;
    if (!compareWith) {
      viewerRef.current?.setCompared([]);
      return;
    }
    const controller = new AbortController();
    const arches = planArches.filter((arch) =>
      arch === 'upper' ? compareWith.summary.upperStages > 0 : compareWith.summary.lowerStages > 0,
    );
    void Promise.allSettled(
      arches.map((arch) => loadPlanArchView(compareWith, arch, controller.signal, () => {})),
    ).then((results) => {
      const loaded = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      if (controller.signal.aborted || !viewerRef.current) return loaded.forEach(disposePlanArchView);
      viewerRef.current.setCompared(loaded);
      viewerRef.current.show(stage, { upper: showUpper, lower: showLower, ghost: showGhost });
    });
    return () => controller.abort();
  }, [isReady, compareWith?.planId]);

  useEffect(() => {
    if (!requestedStage) return;
    setIsPlaying(false);
    setStage(Math.min(requestedStage.stage, lastStage));
  }, [requestedStage]);

  // A click, not the end of a drag that turned the view: the pointer went down and up within a few pixels.
  const downAt = useRef<{ x: number; y: number }>(undefined);
  const pointerDown = (event: React.PointerEvent) => (downAt.current = { x: event.clientX, y: event.clientY });
  const pointerUp = (event: React.PointerEvent) => {
    const start = downAt.current;
    if (!start || Math.hypot(event.clientX - start.x, event.clientY - start.y) > 5) return;
    const pin = onSelectPin && viewerRef.current?.pinAt(event.clientX, event.clientY);
    if (pin !== undefined && pin !== null) return onSelectPin?.(pin);
    if (!onPick) return;
    const hit = viewerRef.current?.pick(event.clientX, event.clientY);
    if (hit) onPick({ ...hit, stage });
  };

  // Playing steps forward at the viewer's pace: every stage is already in memory.
  useEffect(() => {
    if (!isPlaying || !isReady) return;
    if (stage >= lastStage) {
      setIsPlaying(false);
      return;
    }
    const timer = setTimeout(() => setStage((current) => Math.min(current + 1, lastStage)), playStepMs);
    return () => clearTimeout(timer);
  }, [isPlaying, isReady, stage]);

  return (
    <Stack gap="sm">
      {webGlError && (
        <Alert color="red" role="alert">
          <Trans>This browser cannot show 3D graphics (WebGL is not available).</Trans>
        </Alert>
      )}
      {!isReady && !webGlError && (
        <Box>
          <Progress value={percent} aria-label={t`Loading the plan: ${percent}%`} />
          <Text size="sm" c="dimmed" ta="center" mt={4} role="status">
            <Trans>Loading the plan… {percent}%</Trans>
          </Text>
        </Box>
      )}
      <Box
        ref={containerRef}
        mih={280}
        pos="relative"
        data-shown-stage={isReady ? stage : ''}
        onPointerDown={pointerDown}
        onPointerUp={pointerUp}
        style={{
          height: 'min(56vh, 520px)',
          cursor: onPick ? 'crosshair' : undefined,
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-gray-3)',
        }}
      />
      <StageControls
        controls={controls}
        isWaiting={!isReady}
        onView={(preset) => viewerRef.current?.setView(preset)}
        forPatient={forPatient}
      />
    </Stack>
  );
}
