import { ActionIcon, Alert, Box, Checkbox, Group, Slider, Stack, Text } from '@mantine/core';
import type { PlanArch, PlanVersion } from '@portal/contract';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BufferGeometry } from 'three';
import { loadStl } from '../../../../lib/load-stl.ts';
import { createStageViewer, type StageViewer } from './create-stage-viewer.ts';

/** Stages loaded ahead of the one shown, so playing and stepping forward never wait. */
const prefetchAhead = 3;
const playStepMs = 700;

interface CacheEntry {
  geometry?: BufferGeometry;
  error?: string;
}

/**
 * The 3D stage viewer of one plan version (three.js lives in this lazily loaded chunk):
 * a stage slider with play and pause, upper and lower toggles, and stage 0 ghosted over the
 * current stage. Stage models load as they are needed (the stage shown and a few ahead);
 * each is parsed once and kept, so going back to a loaded stage only swaps meshes. The
 * geometries are disposed when the viewer closes.
 */
export default function StageScene({ plan }: { plan: PlanVersion }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<StageViewer | null>(null);
  const cache = useRef(new Map<string, CacheEntry>());
  const loading = useRef(new Set<string>());
  const abort = useRef(new AbortController());
  const [loads, setLoads] = useState(0);
  const [stage, setStage] = useState(0);
  const [shownStage, setShownStage] = useState<number | null>(null);
  const [isPlaying, setIsPlaying] = useState(false);
  const [showUpper, setShowUpper] = useState(plan.summary.upperStages > 0);
  const [showLower, setShowLower] = useState(plan.summary.lowerStages > 0);
  const [showGhost, setShowGhost] = useState(true);
  const [webGlError, setWebGlError] = useState(false);

  const counts: Record<PlanArch, number> = { upper: plan.summary.upperStages, lower: plan.summary.lowerStages };
  const lastStage = Math.max(counts.upper, counts.lower);
  const urls = useMemo(() => {
    const byArch: Record<PlanArch, Map<number, string>> = { upper: new Map(), lower: new Map() };
    for (const file of plan.stages) byArch[file.arch].set(file.stage, file.url);
    return byArch;
  }, [plan]);
  /** An arch that finished earlier stays on its last stage. */
  const urlAt = useCallback(
    (arch: PlanArch, at: number) => (counts[arch] === 0 ? undefined : urls[arch].get(Math.min(at, counts[arch]))),
    [counts.upper, counts.lower, urls],
  );

  const ensure = useCallback((url: string | undefined) => {
    if (!url || cache.current.has(url) || loading.current.has(url)) return;
    loading.current.add(url);
    loadStl(url, abort.current.signal).then(
      (geometry) => {
        loading.current.delete(url);
        if (abort.current.signal.aborted) return geometry.dispose();
        cache.current.set(url, { geometry });
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
      viewerRef.current = createStageViewer(containerRef.current!, `3D view of treatment plan version ${plan.version}`);
    } catch {
      setWebGlError(true);
    }
    return () => {
      controller.abort();
      viewerRef.current?.dispose();
      viewerRef.current = null;
      for (const entry of geometries.values()) entry.geometry?.dispose();
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
    const geometry = (url: string | undefined) => (url ? cache.current.get(url)?.geometry : undefined);
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

  return (
    <Stack gap="sm">
      {webGlError && (
        <Alert color="red" role="alert">
          This browser cannot show 3D graphics (WebGL is not available).
        </Alert>
      )}
      {failures.length > 0 && (
        <Alert color="red" role="alert">
          {failures.length === 1 ? 'A stage model' : `${failures.length} stage models`} could not be loaded:{' '}
          {failures[0]![1].error}.
        </Alert>
      )}
      <Box
        ref={containerRef}
        h="min(56vh, 520px)"
        mih={280}
        pos="relative"
        data-shown-stage={shownStage ?? ''}
        style={{
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-gray-3)',
        }}
      />
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
          checked={showUpper}
          disabled={counts.upper === 0}
          onChange={(event) => setShowUpper(event.currentTarget.checked)}
        />
        <Checkbox
          label="Lower arch"
          checked={showLower}
          disabled={counts.lower === 0}
          onChange={(event) => setShowLower(event.currentTarget.checked)}
        />
        <Checkbox
          label="Show stage 0 (initial position) ghosted"
          checked={showGhost}
          onChange={(event) => setShowGhost(event.currentTarget.checked)}
        />
      </Group>
      <Text size="sm" c="dimmed">
        Drag to rotate, scroll or pinch to zoom, right-drag to pan. Stage 0 is the initial position; the ghost shows it
        over the current stage.
      </Text>
    </Stack>
  );
}
