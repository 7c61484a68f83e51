import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Checkbox, Group, Progress, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { loadMeshView } from '../../lib/load-mesh-view.ts';
import { prepareCanvas } from '../../lib/model-canvas.ts';
import { createViewer, type ScanViewer } from './create-viewer.ts';
import { listed } from './listed.ts';
import type { ViewableScan } from './view-in-3d.tsx';
import { ViewPresetButtons } from './view-preset-buttons.tsx';
import { archHiddenBy, type ViewPreset } from './view-presets.ts';
import { ViewerLoading } from './viewer-status.tsx';

type ViewerState =
  | { kind: 'loading' }
  | { kind: 'ready'; shown: ViewableScan[]; failures: string[]; notes: string[] }
  | { kind: 'failed'; failures: string[] };

/** A scan's colour, beside its name. */
function Swatch({ color }: { color: string }) {
  return (
    <Box
      w={14}
      h={14}
      bg={color}
      style={{ border: '1px solid var(--mantine-color-gray-6)', borderRadius: 3 }}
      aria-hidden
    />
  );
}

/**
 * The 3D view of STL scans (a case's, a message's); three.js lives in this lazily loaded chunk only.
 * Several scans each get a toggle; the view presets turn them to a side (an occlusal view shows its arch alone).
 */
export default function StlScene({ scans }: { scans: ViewableScan[] }) {
  const { t } = useLingui();
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<ScanViewer>(undefined);
  const [state, setState] = useState<ViewerState>({ kind: 'loading' });
  const [percent, setPercent] = useState(0);
  const [hidden, setHidden] = useState<ReadonlySet<ViewableScan>>(new Set());

  useEffect(() => {
    if (state.kind !== 'ready') return;
    state.shown.forEach((scan, index) => viewerRef.current?.setVisible(index, !hidden.has(scan)));
  }, [state, hidden]);

  const showPreset = (preset: ViewPreset) => {
    const hiddenArch = archHiddenBy(preset);
    if (hiddenArch && state.kind === 'ready') {
      // An occlusal view: the viewed arch's scans alone, when there are any.
      const viewed = state.shown.filter((scan) => scan.arch !== undefined && scan.arch !== hiddenArch);
      if (viewed.length > 0) setHidden(new Set(state.shown.filter((scan) => !viewed.includes(scan))));
    }
    viewerRef.current?.setView(preset);
  };

  useEffect(() => {
    const controller = new AbortController();
    let viewer: ScanViewer | undefined;
    let cannotDraw = false;
    // The canvas is made while the scans download (the software check in a worker, the WebGL
    // context set up by the GPU process, then the viewer in a task of its own), so that none of it
    // adds to the task that shows them, and the canvas has its size before any drawing is queued
    // (docs/decisions/viewer-first-open.md).
    const canvasMade = prepareCanvas()
      .catch(() => undefined)
      .then(
        (prepared) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              if (!controller.signal.aborted) {
                try {
                  viewer = createViewer(containerRef.current!, prepared);
                  viewerRef.current = viewer;
                } catch {
                  cannotDraw = true;
                }
              }
              resolve();
            }, 0),
          ),
      );
    const shares = scans.map(() => 0);
    const loads = scans.map((scan, index) =>
      loadMeshView(scan, controller.signal, (share) => {
        shares[index] = share;
        if (!controller.signal.aborted)
          setPercent(Math.round((100 * shares.reduce((sum, part) => sum + part, 0)) / scans.length));
      }),
    );
    void Promise.allSettled(loads).then(async (results) => {
      await canvasMade;
      const loaded = results.flatMap((result, index) =>
        result.status === 'fulfilled' ? [{ scan: scans[index]!, ...result.value }] : [],
      );
      const disposeLoaded = () =>
        loaded.forEach(({ geometry, overview }) => [geometry, overview?.geometry].forEach((part) => part?.dispose()));
      if (controller.signal.aborted) return disposeLoaded();
      const notes = loaded.flatMap(({ scan: { fileName }, fallback }) =>
        fallback ? [t`Showing the original ${fileName}: ${fallback}.`] : [],
      );
      const failures = results.flatMap((result, index) => {
        if (result.status === 'fulfilled') return [];
        const fileName = scans[index]!.fileName;
        const reason = (result.reason as Error).message;
        return [t`Could not read ${fileName}: ${reason}.`];
      });
      if (loaded.length === 0) {
        setState({ kind: 'failed', failures });
        return;
      }
      if (cannotDraw || !viewer) {
        disposeLoaded();
        setState({ kind: 'failed', failures: [t`This browser cannot show 3D graphics (WebGL is not available).`] });
        return;
      }
      const shown = loaded.map(({ scan }) => scan);
      const names = listed(shown.map((scan) => scan.label.toLowerCase()));
      viewer.show(
        loaded.map(({ scan, geometry, matrix, overview }) => ({
          geometry,
          matrix,
          overview,
          color: scan.color,
          arch: scan.arch,
        })),
        t`3D view of the ${names} scan`,
      );
      setState({ kind: 'ready', shown, failures, notes });
    });
    return () => {
      controller.abort();
      viewer?.dispose();
      viewerRef.current = undefined;
    };
  }, [scans]);

  return (
    <>
      {state.kind === 'ready' &&
        state.notes.map((note) => (
          <Alert key={note} color="blue" role="status" mb="sm">
            {note}
          </Alert>
        ))}
      {state.kind !== 'loading' &&
        state.failures.map((failure) => (
          <Alert key={failure} color="red" role="alert" mb="sm">
            {failure}
          </Alert>
        ))}
      {state.kind === 'ready' && (
        <Group gap="lg" mb="xs" {...(state.shown.length > 1 && { role: 'group', 'aria-label': t`Scans shown` })}>
          {state.shown.map((scan) =>
            state.shown.length > 1 ? (
              <Checkbox
                key={scan.label}
                checked={!hidden.has(scan)}
                onChange={(event) => {
                  const isShown = event.currentTarget.checked;
                  setHidden((before) => {
                    const next = new Set(before);
                    if (isShown) next.delete(scan);
                    else next.add(scan);
                    return next;
                  });
                }}
                label={
                  <Group gap={6} component="span">
                    <Swatch color={scan.color} />
                    {scan.label}
                  </Group>
                }
              />
            ) : (
              <Group key={scan.label} gap={6}>
                <Swatch color={scan.color} />
                <Text size="sm">{scan.label}</Text>
              </Group>
            ),
          )}
        </Group>
      )}
      {/* The canvas is laid out from the start (its size set before anything is drawn), under the progress while the scans load. */}
      <Box pos="relative" display={state.kind === 'failed' ? 'none' : 'block'}>
        <Box
          ref={containerRef}
          mih={280}
          aria-hidden={state.kind !== 'ready'}
          style={{ height: 'min(60vh, 560px)', borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}
        />
        {state.kind === 'loading' && (
          <Box pos="absolute" inset={0} bg="var(--mantine-color-body)">
            <ViewerLoading />
            <Progress value={percent} aria-label={t`Loading the scans: ${percent}%`} mt="xs" />
            <Text size="sm" c="dimmed" ta="center" mt={4}>
              {percent}%
            </Text>
          </Box>
        )}
      </Box>
      {state.kind === 'ready' && <ViewPresetButtons onView={showPreset} />}
      {state.kind === 'ready' && (
        <Text size="sm" c="dimmed" mt="xs">
          <Trans>
            Drag to rotate, scroll or pinch to zoom, right-drag to pan. With the view focused, arrow keys pan and Shift
            + arrow keys rotate.
          </Trans>
        </Text>
      )}
    </>
  );
}
