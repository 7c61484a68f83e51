import type { PlanArch } from '@portal/contract';
import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  Color,
  DoubleSide,
  Line,
  LineBasicMaterial,
  LOD,
  Matrix4,
  Mesh,
  MeshStandardMaterial,
  Quaternion,
  Vector3,
  type Material,
  type Object3D,
} from 'three';
import { showViewPreset, type ViewPreset } from '../../../../components/stl-viewer/view-presets.ts';
import {
  archTurn,
  findArchFrame,
  pointsOf,
  sampleMesh,
  type ArchFrame,
  type ArchSample,
} from '../../../../lib/arch-frame.ts';
import { createModelCanvas } from '../../../../lib/model-canvas.ts';
import { disposePlanArchView, type PlanArchView } from '../../lib/load-plan-view.ts';
import { createLabels, type Pin } from './labels.ts';

export type { Pin } from './labels.ts';

export type ArchSlot = 'upper' | 'lower' | 'ghostUpper' | 'ghostLower' | 'compared';

const colors: Record<ArchSlot, string> = {
  upper: '#e9ecef',
  lower: '#ffe8cc',
  ghostUpper: '#1c7ed6',
  ghostLower: '#1c7ed6',
  compared: '#9c36b5',
};

/** From the front, slightly above. */
const viewDirection = new Vector3(0, 0.25, 1).normalize();

/** An arch's colour; a ghost is see-through and writes no depth, so the stage under it shows. */
function materialFor(slot: ArchSlot) {
  const isGhost = slot.startsWith('ghost') || slot === 'compared';
  return new MeshStandardMaterial({
    color: colors[slot],
    roughness: 0.5,
    metalness: 0.05,
    side: DoubleSide,
    transparent: isGhost,
    opacity: isGhost ? 0.28 : 1,
    depthWrite: !isGhost,
  });
}

/**
 * A canvas in `container` with four mesh slots: the current stage of each arch and, ghosted
 * (transparent, no depth write), each arch's stage 0. Showing another stage swaps the
 * geometry of a slot; the geometries belong to the caller's cache and are not disposed
 * here. All stages of a plan share one coordinate frame, so the group is centred and the
 * camera fitted once, on the first geometries shown; the scene renders only on change.
 */
export function createStageViewer(container: HTMLElement, ariaLabel: string) {
  const view = createModelCanvas(container, {
    ariaLabel,
    background: '#f8f9fa',
    viewDirection,
  });
  const meshes = {} as Record<ArchSlot, Mesh<BufferGeometry, MeshStandardMaterial>>;
  for (const slot of ['upper', 'lower', 'ghostUpper', 'ghostLower'] as const) {
    const material = materialFor(slot);
    const mesh = new Mesh(undefined, material);
    mesh.visible = false;
    mesh.renderOrder = material.transparent ? 1 : 0;
    meshes[slot] = mesh;
    view.model.add(mesh);
  }

  let hasFitted = false;
  let arch: { frame: ArchFrame; samples: ArchSample[] } | undefined;
  return {
    /** Puts each slot's geometry in place (undefined hides the slot) and renders once. */
    show(slots: Partial<Record<ArchSlot, { geometry: BufferGeometry; matrix: Matrix4 } | undefined>>) {
      for (const slot of Object.keys(meshes) as ArchSlot[]) {
        const part = slots[slot];
        const mesh = meshes[slot];
        mesh.visible = part !== undefined;
        if (!part) continue;
        mesh.geometry = part.geometry;
        // A viewing copy's quantized positions go back to millimetres through its matrix (identity for an STL).
        part.matrix.decompose(mesh.position, mesh.quaternion, mesh.scale);
      }
      if (!hasFitted) {
        // The arch's own frame (lib/arch-frame.ts), from the arches shown first.
        const samples = (['upper', 'lower'] as const).flatMap((slot) => {
          const part = slots[slot];
          return part ? [sampleMesh(part.geometry, part.matrix, slot)] : [];
        });
        arch = { frame: findArchFrame(samples), samples };
        view.model.quaternion.copy(archTurn(arch.frame));
        hasFitted = view.fit(pointsOf(samples));
      }
      view.render();
    },
    setView: (preset: ViewPreset) => showViewPreset(view, preset, viewDirection, arch),
    dispose() {
      view.dispose();
      for (const mesh of Object.values(meshes)) mesh.material.dispose();
    },
  };
}

export type StageViewer = ReturnType<typeof createStageViewer>;

/**
 * The stage viewer on the server's copy of the plan (lib/load-plan-view.ts): each arch's
 * teeth are loaded once, and a stage is shown by moving each tooth's node to its keyframe,
 * so stepping and playing never load or parse anything. The ghost is a second set of
 * nodes at stage 0 sharing the same geometries. Disposing frees the geometries too.
 */
export function createPlanViewer(container: HTMLElement, arches: PlanArchView[], ariaLabel: string) {
  const view = createModelCanvas(container, {
    ariaLabel,
    background: '#f8f9fa',
    viewDirection,
  });
  const materials: MeshStandardMaterial[] = [];
  const withMaterial = (root: Object3D, slot: ArchSlot) => {
    const material = materialFor(slot);
    materials.push(material);
    root.traverse((object) => {
      if (!(object instanceof Mesh)) return;
      (object.material as Material).dispose();
      object.material = material;
      object.renderOrder = material.transparent ? 1 : 0;
    });
    return root;
  };
  const shown = arches.map((arch) => {
    const ghost = arch.scene.clone();
    // The ghost is a faint reference: its teeth's overviews only, whatever the distance.
    const lods: LOD[] = [];
    ghost.traverse((object) => {
      if (object instanceof LOD && object.levels.length === 2) lods.push(object);
    });
    for (const lod of lods) {
      const overview = lod.levels[1]!.object;
      lod.parent!.add(overview);
      overview.visible = true;
      lod.removeFromParent();
    }
    withMaterial(arch.scene, arch.arch);
    withMaterial(ghost, arch.arch === 'upper' ? 'ghostUpper' : 'ghostLower');
    view.model.add(arch.scene, ghost);
    return { ...arch, ghost };
  });
  const archFrame = planArchFrame(arches);
  view.model.quaternion.copy(archTurn(archFrame.frame));

  /**
   * The movement map: each tooth's points coloured by how far they move from stage 0 to
   * the arch's last stage, blue (not at all) to red (the most of any point, the answer in
   * mm). The geometries are the ghost's too, whose material draws no vertex colours.
   */
  const archColors = shown.map((arch) => colors[arch.arch]);
  const setMovementMap = (isOn: boolean): number => {
    let largest = 0;
    const distancesOf: { geometry: BufferGeometry; distances: Float32Array }[] = [];
    if (isOn) {
      const [unitScale, p, a, b] = [new Vector3(1, 1, 1), new Vector3(), new Vector3(), new Vector3()];
      const poseAt = (shell: PlanArchView['shells'][number], stage: number) =>
        new Matrix4().compose(
          new Vector3().fromArray(shell.translations, stage * 3),
          new Quaternion().fromArray(shell.rotations, stage * 4),
          unitScale,
        );
      for (const arch of shown) {
        arch.scene.updateMatrixWorld(true);
        for (const shell of arch.shells) {
          const [first, last] = [poseAt(shell, 0), poseAt(shell, arch.stages)];
          const toShell = shell.node.matrixWorld.clone().invert();
          shell.node.traverse((object) => {
            if (!(object instanceof Mesh)) return;
            const fromMesh = toShell.clone().multiply(object.matrixWorld);
            const positions = object.geometry.getAttribute('position');
            const distances = new Float32Array(positions.count);
            for (let vertex = 0; vertex < positions.count; vertex++) {
              p.fromBufferAttribute(positions, vertex).applyMatrix4(fromMesh);
              const distance = a.copy(p).applyMatrix4(first).distanceTo(b.copy(p).applyMatrix4(last));
              distances[vertex] = distance;
              largest = Math.max(largest, distance);
            }
            distancesOf.push({ geometry: object.geometry as BufferGeometry, distances });
          });
        }
      }
      const color = new Color();
      for (const { geometry, distances } of distancesOf) {
        const rgb = new Float32Array(distances.length * 3);
        distances.forEach((distance, vertex) => {
          color.setHSL((1 - distance / (largest || 1)) * 0.66, 0.85, 0.5).toArray(rgb, vertex * 3);
        });
        geometry.setAttribute('color', new BufferAttribute(rgb, 3));
      }
    }
    shown.forEach((arch, index) => {
      arch.scene.traverse((object) => {
        if (!(object instanceof Mesh)) return;
        const material = object.material as MeshStandardMaterial;
        material.vertexColors = isOn;
        material.color.set(isOn ? '#ffffff' : archColors[index]!);
        material.needsUpdate = true;
      });
    });
    if (hasFitted) view.render();
    return largest;
  };

  // The stage and arches last shown, for what is placed with them (markers, the compared version).
  let shownStage = 0;
  let shownVisible = { upper: true, lower: true, ghost: true };
  // Pins and IPR and attachment markers, kept apart on the screen before each frame (labels.ts).
  const labels = createLabels(view.model, container);
  const scene = view.model.parent!;
  scene.onBeforeRender = (_renderer, _scene, camera) => labels.layout(camera);
  // IPR contacts and attachments: placed between (or on) their teeth at the stage shown.
  let markers: ToothMarker[] = [];
  const bounds = new Box3();
  const placeMarkers = () => {
    // Once for all markers: their teeth were just moved to the stage shown.
    view.model.updateMatrixWorld(true);
    markers.forEach((marker, index) => {
      const arch = shown.find((candidate) => candidate.arch === marker.arch);
      const nodes = marker.shells.map((shell) => arch?.scene.getObjectByName(`shell-${shell}`));
      if (!arch || !shownVisible[marker.arch] || shownStage < marker.fromStage || !nodes.every(Boolean)) {
        labels.placeMarker(index, undefined);
        return;
      }
      const centre = new Vector3();
      for (const node of nodes) centre.add(bounds.setFromObject(node!).getCenter(new Vector3()));
      labels.placeMarker(index, view.model.worldToLocal(centre.divideScalar(nodes.length)));
    });
    labels.placePins(shownStage, shownVisible);
  };
  const setMarkers = (next: ToothMarker[]) => {
    markers = next;
    labels.setMarkers(next);
    placeMarkers();
    if (hasFitted) view.render();
  };

  // Another version of the plan, overlaid see-through at the same stage (its teeth only).
  let compared: PlanArchView[] = [];
  const placeCompared = () => {
    for (const arch of compared) {
      moveTo(arch, shownStage);
      arch.scene.visible = shownVisible[arch.arch];
    }
  };
  const setCompared = (next: PlanArchView[]) => {
    for (const arch of compared) {
      arch.scene.removeFromParent();
      disposePlanArchView(arch);
    }
    compared = next;
    for (const arch of compared) view.model.add(withMaterial(arch.scene, 'compared'));
    placeCompared();
    if (hasFitted) view.render();
  };

  let hasFitted = false;
  /** Comments' numbered pins at their points, in the plan's coordinates (the model group's); one selected or none. */
  const setPins = (next: Pin[], selected?: number) => {
    labels.setPins(next, selected);
    labels.placePins(shownStage, shownVisible);
    if (hasFitted) view.render();
  };

  // The measuring tool's two points and the line between them, drawn over the teeth.
  const measureMaterial = new LineBasicMaterial({ color: '#e8590c', depthTest: false });
  const measure = new Line(new BufferGeometry(), measureMaterial);
  measure.renderOrder = 2;
  view.model.add(measure);
  const setMeasure = (points: number[][]) => {
    measure.geometry.dispose();
    measure.geometry = new BufferGeometry().setFromPoints(points.map((point) => new Vector3().fromArray(point)));
    if (hasFitted) view.render();
  };

  /** Something drawn with the teeth, in the plan's coordinates (a progress scan's copy); shown or hidden by the caller's toggles. */
  const addOverlay = (object: Object3D) => {
    view.model.add(object);
    if (hasFitted) view.render();
    return {
      setVisible(isVisible: boolean) {
        object.visible = isVisible;
        if (hasFitted) view.render();
      },
    };
  };

  return {
    addOverlay,
    setPins,
    setMeasure,
    setCompared,
    setMarkers,
    setMovementMap,
    /** The comment whose pin is under a click, if any. */
    pinAt: (clientX: number, clientY: number) => labels.pinAt(clientX, clientY),
    /** The arch and the point (plan coordinates) of a tooth under a click; undefined off the teeth. */
    pick(clientX: number, clientY: number): { arch: PlanArch; point: number[] } | undefined {
      const hit = view.pick(clientX, clientY);
      if (!hit) return undefined;
      const arch = shown.find((candidate) => {
        let ancestor: Object3D | null = hit.object;
        while (ancestor && ancestor !== candidate.scene) ancestor = ancestor.parent;
        return ancestor === candidate.scene;
      });
      return arch && { arch: arch.arch, point: hit.point.toArray() };
    },
    /** Each arch at `stage` (an arch that finished earlier stays at its last), the ones asked for visible. */
    show(stage: number, visible: { upper: boolean; lower: boolean; ghost: boolean }) {
      for (const arch of shown) {
        moveTo(arch, stage);
        arch.scene.visible = visible[arch.arch];
        arch.ghost.visible = visible[arch.arch] && visible.ghost && stage !== 0;
      }
      [shownStage, shownVisible] = [stage, visible];
      placeCompared();
      placeMarkers();
      if (!hasFitted) {
        // Every part visible while fitting, so that the shaders of all of them (the ghost's too) compile then.
        const visibleNow = shown.map((arch) => [arch.scene.visible, arch.ghost.visible] as const);
        for (const arch of shown) arch.scene.visible = arch.ghost.visible = true;
        hasFitted = view.fit(pointsOf(archFrame.samples));
        shown.forEach((arch, index) => ([arch.scene.visible, arch.ghost.visible] = visibleNow[index]!));
      }
      view.render();
    },
    setView: (preset: ViewPreset) => showViewPreset(view, preset, viewDirection, archFrame),
    dispose() {
      labels.dispose();
      setCompared([]);
      measure.geometry.dispose();
      measureMaterial.dispose();
      view.dispose();
      shown.forEach(disposePlanArchView);
      for (const material of materials) material.dispose();
    },
  };
}

export type PlanViewer = ReturnType<typeof createPlanViewer>;

/**
 * The plan's arch frame (lib/arch-frame.ts) from its teeth at stage 0: each tooth's overview
 * (the same shape, fewer triangles), a share of the sample each, in the plan's coordinates.
 */
function planArchFrame(arches: PlanArchView[]): { frame: ArchFrame; samples: ArchSample[] } {
  const parts: { mesh: Mesh; arch: PlanArch; matrix: Matrix4 }[] = [];
  for (const arch of arches) {
    arch.scene.updateMatrixWorld(true);
    const toPlan = arch.scene.matrixWorld.clone().invert();
    arch.scene.traverse((object) => {
      // Of a tooth's two levels, its overview alone.
      if (!(object instanceof Mesh) || (object.parent instanceof LOD && object.parent.levels[0]?.object === object))
        return;
      parts.push({ mesh: object, arch: arch.arch, matrix: toPlan.clone().multiply(object.matrixWorld) });
    });
  }
  const budget = Math.max(20, 6000 / Math.max(parts.length, 1));
  const samples = parts.map(({ mesh, arch, matrix }) =>
    sampleMesh(mesh.geometry as BufferGeometry, matrix, arch, budget),
  );
  return { frame: findArchFrame(samples), samples };
}

/** Each tooth of an arch to its place at `stage` (an arch that finished earlier stays at its last). */
function moveTo(arch: PlanArchView, stage: number) {
  const at = Math.min(stage, arch.stages);
  for (const shell of arch.shells) {
    shell.node.position.fromArray(shell.translations, at * 3);
    shell.node.quaternion.fromArray(shell.rotations, at * 4);
  }
}

/** An IPR contact between two teeth, or an attachment on one, shown from its stage on, between (or on) its shells. */
export interface ToothMarker {
  /** An IPR contact, an attachment, or a tooth a progress scan found off track (its name). */
  kind: 'ipr' | 'attachment' | 'offTrack';
  arch: PlanArch;
  /** The shells (the copy's `shell-<n>` nodes) it sits on: two for a contact, one for an attachment. */
  shells: number[];
  text: string;
  fromStage: number;
}
