import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Progress, Stack, Text } from '@mantine/core';
import { endpoints, progressViewDistanceCapMm, type PlanArch, type ProgressScan } from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { BufferAttribute, DoubleSide, Mesh, MeshStandardMaterial, type BufferGeometry, type Object3D } from 'three';
import { ViewPresetButtons } from '../../../components/stl-viewer/view-preset-buttons.tsx';
import { readCopyInWorker, type LoadedMesh } from '../../../lib/load-mesh-view.ts';
import { meshOfCopy } from '../../../lib/model-canvas.ts';
import { serverText } from '../../../lib/server-text.ts';
import { createPlanViewer, type PlanViewer, type ToothMarker } from './stage-viewer/create-stage-viewer.ts';
import type { ViewedPlan } from './stage-viewer/plan-view-scene.tsx';
import { disposePlanArchView, loadPlanArchView, type PlanArchView } from '../lib/load-plan-view.ts';
import { distanceBands, type DistanceBand } from '../lib/progress-overlay-colors.ts';

/**
 * The progress overlay's 3D scene (three.js, in this lazily loaded chunk): the planned stage the
 * patient wears, from the plan's viewing copy (as the stage viewer loads it), and over it each
 * arch's scan as the fit placed it, coloured by its distance to the planned teeth. Both copies
 * are decoded off the main thread (the scan's in a Web Worker, mesh-view-worker.ts; the plan's
 * meshopt streams in the decoder's workers); the page only wraps streams and colours vertices.
 */

const scanUrl = (caseId: number, progressScanId: number, arch: PlanArch) =>
  endpoints.progressScanView.path
    .replace(':caseId', String(caseId))
    .replace(':progressScanId', String(progressScanId))
    .replace(':arch', arch);

/** Each vertex's colour from its distance (mm) by the legend's bands; the gum and what the plan has not, grey. */
function colourByDistance(geometry: BufferGeometry, bands: DistanceBand[]) {
  const distance = geometry.getAttribute('distance');
  const colours = new Float32Array(distance.count * 3);
  // In the copy's units (0-1 of the cap): getX undoes the quantization.
  const limits = bands.map((band) => band.belowMm / progressViewDistanceCapMm);
  const last = bands.length - 1;
  for (let vertex = 0; vertex < distance.count; vertex++) {
    const share = distance.getX(vertex);
    let band = 0;
    while (band < last && share >= limits[band]!) band++;
    const [r, g, b] = bands[band]!.rgb;
    colours[vertex * 3] = r;
    colours[vertex * 3 + 1] = g;
    colours[vertex * 3 + 2] = b;
  }
  geometry.setAttribute('color', new BufferAttribute(colours, 3));
}

/**
 * The scan's copy, decoded in the mesh-view worker. The job makes it a few seconds after the
 * fit's answer: while the server says it is being made, asked again (a minute at most); any
 * other refusal is told with the server's reason.
 */
async function readScanCopy(url: string, signal: AbortSignal, onProgress: (share: number) => void) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await readCopyInWorker(url, signal, onProgress);
    } catch (error) {
      if (signal.aborted) throw error;
      const answer = await fetch(url, { method: 'GET', credentials: 'include', signal });
      if (answer.ok) continue;
      const { message } = (await answer.json().catch(() => ({}))) as { message?: string };
      if (answer.status !== 409 || !message?.startsWith('The viewing copy is being made') || attempt >= 40) {
        throw message ? new Error(message) : error;
      }
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The planned teeth see-through (`isOn`) or solid; a material is recompiled only when it changes. */
function veil(materials: MeshStandardMaterial[], isOn: boolean) {
  for (const material of materials) {
    if (material.transparent === isOn) continue;
    material.transparent = isOn;
    material.opacity = isOn ? 0.3 : 1;
    material.depthWrite = !isOn;
    material.needsUpdate = true;
  }
}

export default function ProgressOverlayScene({
  plan,
  scan,
  markers,
  showScan,
  showPlan,
  onOffTrackMm,
}: {
  plan: ViewedPlan;
  scan: Pick<ProgressScan, 'progressScanId' | 'stage' | 'arches'>;
  markers: ToothMarker[];
  showScan: boolean;
  showPlan: boolean;
  /** Told the off-track distance the fit judged the teeth by, as the scan's copy says. */
  onOffTrackMm: (mm: number) => void;
}) {
  const { t } = useLingui();
  const aligner = scan.stage;
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<PlanViewer | null>(null);
  const scansRef = useRef<Object3D[]>([]);
  const scanOverlays = useRef<ReturnType<PlanViewer['addOverlay']>[]>([]);
  const planMaterials = useRef<MeshStandardMaterial[]>([]);
  const [percent, setPercent] = useState(0);
  const [isReady, setIsReady] = useState(false);
  const [failure, setFailure] = useState<string>();
  const arches = scan.arches.map((arch) => arch.arch);

  useEffect(() => {
    const controller = new AbortController();
    const shares = arches.flatMap(() => [0, 0]);
    const progress = (index: number) => (share: number) => {
      shares[index] = share;
      if (!controller.signal.aborted)
        setPercent(Math.round((100 * shares.reduce((sum, part) => sum + part, 0)) / shares.length));
    };
    const plans = arches.map((arch, index) => loadPlanArchView(plan, arch, controller.signal, progress(index * 2)));
    const scans = arches.map((arch, index) =>
      readScanCopy(scanUrl(plan.caseId, scan.progressScanId, arch), controller.signal, progress(index * 2 + 1)),
    );
    void Promise.allSettled([Promise.all(plans), Promise.all(scans)]).then(async ([planResult, scanResult]) => {
      const loadedPlans: PlanArchView[] = planResult.status === 'fulfilled' ? planResult.value : [];
      const loadedScans: LoadedMesh[] = scanResult.status === 'fulfilled' ? scanResult.value : [];
      const dispose = () => {
        loadedPlans.forEach(disposePlanArchView);
        loadedScans.forEach((loaded) =>
          [loaded.geometry, loaded.overview?.geometry].forEach((part) => part?.dispose()),
        );
      };
      if (controller.signal.aborted) return dispose();
      const failed = [planResult, scanResult].find((result) => result.status === 'rejected');
      if (failed) {
        dispose();
        const reason = serverText((failed.reason as Error).message);
        setFailure(
          failed === planResult
            ? t`The overlay could not be loaded: the plan's copy (${reason}).`
            : t`The overlay could not be loaded: the scan placed on the plan (${reason}).`,
        );
        return;
      }
      const offTrackMm = Number(loadedScans[0]?.extras?.offTrackMm) || 0.5;
      onOffTrackMm(offTrackMm);
      // Each step in a task of its own: the loads' promise chains end together, and run as one
      // task they held the page for 260 ms and more (bench/progress-overlay.ts).
      const bands = distanceBands(offTrackMm);
      const geometries = loadedScans.flatMap((loaded) =>
        loaded.overview ? [loaded.geometry, loaded.overview.geometry] : [loaded.geometry],
      );
      for (const geometry of geometries) {
        await nextTask();
        if (controller.signal.aborted) return dispose();
        colourByDistance(geometry, bands);
      }
      await nextTask();
      if (controller.signal.aborted) return dispose();
      try {
        const viewer = createPlanViewer(
          containerRef.current!,
          loadedPlans,
          t`3D view: the progress scan at aligner ${aligner} over the planned stage`,
        );
        scansRef.current = loadedScans.map((loaded) => {
          // Drawn in front where it lies on a planned crown, so a tooth on track shows its colour, not a flicker of both.
          const material = new MeshStandardMaterial({
            vertexColors: true,
            roughness: 0.6,
            metalness: 0,
            side: DoubleSide,
            polygonOffset: true,
            polygonOffsetFactor: -1,
            polygonOffsetUnits: -4,
          });
          // With its overview, as the scan viewer draws a scan: the overview while the whole arch
          // is in view, every triangle once the view comes closer (model-canvas.ts).
          const scanObject = meshOfCopy(loaded, material);
          scanObject.name = 'progress-scan';
          return scanObject;
        });
        // The plan's materials (one per arch, the viewer's): see-through while the scan is shown.
        planMaterials.current = [
          ...new Set(
            loadedPlans.flatMap((arch) => {
              const found: MeshStandardMaterial[] = [];
              arch.scene.traverse((object) => {
                if (!(object instanceof Mesh)) return;
                object.renderOrder = 2;
                found.push(object.material as MeshStandardMaterial);
              });
              return found;
            }),
          ),
        ];
        // Set before the first frame, so that its shaders are compiled once, as they will be drawn.
        veil(planMaterials.current, true);
        viewerRef.current = viewer;
        scanOverlays.current = scansRef.current.map((mesh) => viewer.addOverlay(mesh));
        setIsReady(true);
      } catch {
        dispose();
        setFailure(t`This browser cannot show 3D graphics (WebGL is not available).`);
      }
    });
    return () => {
      controller.abort();
      viewerRef.current?.dispose();
      viewerRef.current = null;
      for (const scanObject of scansRef.current) {
        scanObject.traverse((object) => {
          if (!(object instanceof Mesh)) return;
          (object.geometry as BufferGeometry).dispose();
          (object.material as MeshStandardMaterial).dispose();
        });
      }
      scansRef.current = [];
    };
  }, [plan.caseId, plan.planId, scan.progressScanId]);

  useEffect(() => {
    // The arches stay shown to the viewer, so that the off-track markers stay on their teeth;
    // hiding the plan hides its materials.
    viewerRef.current?.show(scan.stage, {
      upper: arches.includes('upper'),
      lower: arches.includes('lower'),
      ghost: false,
    });
    // Over the scan, the planned teeth are a veil: the scan's colours show through, and where a
    // planned crown stands off the scan (a tooth short of it) it shows as a pale shell.
    veil(planMaterials.current, showScan);
    for (const material of planMaterials.current) material.visible = showPlan;
    for (const overlay of scanOverlays.current) overlay.setVisible(showScan);
  }, [isReady, showScan, showPlan]);

  useEffect(() => {
    viewerRef.current?.setMarkers(markers);
  }, [isReady, markers]);

  return (
    <Stack gap="sm">
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {!isReady && !failure && (
        <Box>
          <Progress value={percent} aria-label={t`Loading the overlay: ${percent}%`} />
          <Text size="sm" c="dimmed" ta="center" mt={4} role="status">
            <Trans>Loading the scan and the plan… {percent}%</Trans>
          </Text>
        </Box>
      )}
      <Box
        ref={containerRef}
        mih={280}
        pos="relative"
        data-overlay-ready={isReady ? 'true' : 'false'}
        style={{
          height: 'min(56vh, 520px)',
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-gray-3)',
        }}
      />
      <ViewPresetButtons onView={(preset) => viewerRef.current?.setView(preset)} />
    </Stack>
  );
}
