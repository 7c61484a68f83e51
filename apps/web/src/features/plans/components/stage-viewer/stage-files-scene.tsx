import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Stack } from '@mantine/core';
import { endpoints, type PlanArch, type PlanVersion } from '@portal/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { loadMeshView, type LoadedMesh } from '../../../../lib/load-mesh-view.ts';
import { createStageViewer, type StageViewer } from './create-stage-viewer.ts';
import { playStepMs, StageControls, useStageControls } from './stage-controls.tsx';

const disposeMesh = (mesh: LoadedMesh) => [mesh.geometry, mesh.overview?.geometry].forEach((part) => part?.dispose());

/** Stages loaded ahead of the one shown, so playing and stepping forward never wait. */
const prefetchAhead = 3;

interface CacheEntry {
  mesh?: LoadedMesh;
  error?: string;
}

/**
 * The stage viewer on the plan's stage files, when the server has no copy of the plan for
 * the viewer (`note` says why): stage models load as they are needed (the stage shown and
 * a few ahead); each is parsed once and kept, so going back to a loaded stage only swaps
 * meshes. The geometries are disposed when the viewer closes.
 */
export function StageFilesScene({ plan, note }: { plan: PlanVersion; note?: string }) {
  const { t } = useLingui();
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<StageViewer | null>(null);
  const cache = useRef(new Map<string, CacheEntry>());
  const loading = useRef(new Set<string>());
  const abort = useRef(new AbortController());
  const [loads, setLoads] = useState(0);
  const [shownStage, setShownStage] = useState<number | null>(null);
  const [webGlError, setWebGlError] = useState(false);
  const controls = useStageControls(plan);
  const { counts, lastStage, stage, setStage, isPlaying, setIsPlaying, showUpper, showLower, showGhost } = controls;
  const urls = useMemo(() => {
    const byArch: Record<PlanArch, Map<number, string>> = { upper: new Map(), lower: new Map() };
    for (const file of plan.stages) byArch[file.arch].set(file.stage, file.url);
    return byArch;
  }, [plan]);
  /** Where each stage file's own viewing copy is asked for (made when the plan has no copy of its own). */
  const viewPaths = useMemo(
    () =>
      new Map(
        plan.stages.map((file) => [
          file.url,
          endpoints.planFileView.path.replace(':stageFileId', String(file.stageFileId)),
        ]),
      ),
    [plan],
  );
  /** An arch that finished earlier stays on its last stage. */
  const urlAt = useCallback(
    (arch: PlanArch, at: number) => (counts[arch] === 0 ? undefined : urls[arch].get(Math.min(at, counts[arch]))),
    [counts.upper, counts.lower, urls],
  );

  const ensure = useCallback((url: string | undefined) => {
    if (!url || cache.current.has(url) || loading.current.has(url)) return;
    loading.current.add(url);
    loadMeshView({ viewPath: viewPaths.get(url)!, url }, abort.current.signal, () => {}).then(
      (mesh) => {
        loading.current.delete(url);
        if (abort.current.signal.aborted) return disposeMesh(mesh);
        cache.current.set(url, { mesh });
        setLoads((n) => n + 1);
      },
      (error: unknown) => {
        loading.current.delete(url);
        if (abort.current.signal.aborted) return;
        cache.current.set(url, { error: (error as Error).message });
        setLoads((n) => n + 1);
      },
    );
  }, []);

  const isLoaded = (url: string | undefined) => !url || cache.current.has(url);
  const archesShown = (['upper', 'lower'] as const).filter((arch) =>
    arch === 'upper' ? showUpper && counts.upper > 0 : showLower && counts.lower > 0,
  );
  const neededAt = (at: number) => [
    ...archesShown.map((arch) => urlAt(arch, at)),
    ...(showGhost ? archesShown.map((arch) => urlAt(arch, 0)) : []),
  ];

  // The viewer itself: made once, disposed with every cached geometry on close.
  useEffect(() => {
    const controller = abort.current;
    const geometries = cache.current;
    try {
      const version = plan.version;
      viewerRef.current = createStageViewer(containerRef.current!, t`3D view of treatment plan version ${version}`);
    } catch {
      setWebGlError(true);
    }
    return () => {
      controller.abort();
      viewerRef.current?.dispose();
      viewerRef.current = null;
      for (const entry of geometries.values()) if (entry.mesh) disposeMesh(entry.mesh);
      geometries.clear();
    };
  }, [plan.version]);

  // Load what the stage needs and a few stages ahead; show it once its models are in.
  useEffect(() => {
    for (const url of neededAt(stage)) ensure(url);
    for (let ahead = 1; ahead <= prefetchAhead && stage + ahead <= lastStage; ahead++) {
      for (const arch of archesShown) ensure(urlAt(arch, stage + ahead));
    }
    if (!viewerRef.current || !neededAt(stage).every(isLoaded)) return;
    const geometry = (url: string | undefined) => (url ? cache.current.get(url)?.mesh : undefined);
    const ghost = showGhost && stage !== 0;
    viewerRef.current.show({
      upper: showUpper ? geometry(urlAt('upper', stage)) : undefined,
      lower: showLower ? geometry(urlAt('lower', stage)) : undefined,
      ghostUpper: ghost && showUpper ? geometry(urlAt('upper', 0)) : undefined,
      ghostLower: ghost && showLower ? geometry(urlAt('lower', 0)) : undefined,
    });
    setShownStage(stage);
  }, [stage, showUpper, showLower, showGhost, loads]);

  // Playing steps forward once the next stage is in, and stops at the last.
  useEffect(() => {
    if (!isPlaying) return;
    if (stage >= lastStage) {
      setIsPlaying(false);
      return;
    }
    if (shownStage !== stage || !neededAt(stage + 1).every(isLoaded)) return;
    const timer = setTimeout(() => setStage((current) => Math.min(current + 1, lastStage)), playStepMs);
    return () => clearTimeout(timer);
  }, [isPlaying, stage, shownStage, loads]);

  const failures = [...cache.current.entries()].filter(([, entry]) => entry.error);
  const isWaiting = shownStage !== stage;
  const firstError = failures[0]?.[1].error;
  const failureCount = failures.length;

  return (
    <Stack gap="sm">
      {note && (
        <Alert color="blue" role="status">
          {note}
        </Alert>
      )}
      {webGlError && (
        <Alert color="red" role="alert">
          <Trans>This browser cannot show 3D graphics (WebGL is not available).</Trans>
        </Alert>
      )}
      {failures.length > 0 && (
        <Alert color="red" role="alert">
          {plural(failureCount, {
            one: `A stage model could not be loaded: ${firstError}.`,
            other: `# stage models could not be loaded: ${firstError}.`,
          })}
        </Alert>
      )}
      <Box
        ref={containerRef}
        mih={280}
        pos="relative"
        data-shown-stage={shownStage ?? ''}
        style={{
          height: 'min(56vh, 520px)',
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-gray-3)',
        }}
      />
      <StageControls
        controls={controls}
        isWaiting={isWaiting}
        onView={(preset) => viewerRef.current?.setView(preset)}
      />
    </Stack>
  );
}
