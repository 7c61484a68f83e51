import { t } from '@lingui/core/macro';
import { DoubleSide, Mesh, MeshStandardMaterial, Matrix4, Vector3, type BufferGeometry, type Object3D } from 'three';
import {
  archTurn,
  findArchFrame,
  pointsOf,
  sampleMesh,
  type ArchFrame,
  type ArchSample,
} from '../../lib/arch-frame.ts';
import { createModelCanvas, meshOfCopy, type PreparedCanvas } from '../../lib/model-canvas.ts';
import { showViewPreset, type ViewPreset } from './view-presets.ts';

const viewDirection = new Vector3(0.35, 0.35, 1).normalize();

/** A scan to show: its geometry, where it sits, its colour and its overview. */
export interface ShownMesh {
  geometry: BufferGeometry;
  matrix?: Matrix4;
  color: string;
  overview?: { geometry: BufferGeometry; matrix: Matrix4 };
  /** The arch it shows, when known: an upper arch lies above a lower one, and its crowns point down. */
  arch?: 'upper' | 'lower';
}

/**
 * A canvas in `container`, made before the scans arrive (its WebGL context and size are set
 * up in a task of their own while they download: docs/decisions/viewer-first-open.md), that
 * `show` fills with the scans together: they share one coordinate frame, so the group (not
 * each mesh) is turned to the arch's own frame (found from a sample of the scans, whatever the
 * file's axes: lib/arch-frame.ts) and framed so the teeth fill the view, from the front,
 * slightly from above and to the side so the scans read as solids from the start.
 */
export function createViewer(container: HTMLElement, prepared?: PreparedCanvas) {
  const view = createModelCanvas(
    container,
    {
      ariaLabel: t`3D view`,
      background: '#f1f3f5',
      viewDirection,
    },
    prepared,
  );
  const materials: MeshStandardMaterial[] = [];
  let shown: Object3D[] = [];
  let arch: { frame: ArchFrame; samples: ArchSample[] } | undefined;

  return {
    /** Shows `meshes`, the canvas named `ariaLabel`; the viewer frees their geometries when disposed. */
    show(meshes: ShownMesh[], ariaLabel: string) {
      view.setLabel(ariaLabel);
      shown = meshes.map((mesh) => {
        const material = new MeshStandardMaterial({
          color: mesh.color,
          roughness: 0.55,
          metalness: 0.05,
          side: DoubleSide,
        });
        materials.push(material);
        return meshOfCopy(mesh, material);
      });
      view.model.add(...shown);
      // The overview where there is one: the same shape, fewer triangles to pick from.
      const samples = meshes.map((mesh) =>
        sampleMesh(
          mesh.overview?.geometry ?? mesh.geometry,
          (mesh.overview ?? mesh).matrix ?? new Matrix4(),
          mesh.arch,
        ),
      );
      arch = { frame: findArchFrame(samples), samples };
      view.model.quaternion.copy(archTurn(arch.frame));
      view.fit(pointsOf(samples));
    },
    /** Shows or hides the scan at `index` of `meshes`. */
    setVisible(index: number, isVisible: boolean) {
      if (!shown[index]) return;
      shown[index].visible = isVisible;
      view.render();
    },
    setView: (preset: ViewPreset) => showViewPreset(view, preset, viewDirection, arch),
    dispose() {
      view.dispose();
      for (const object of shown) {
        object.traverse((child) => {
          if (child instanceof Mesh) (child.geometry as BufferGeometry).dispose();
        });
      }
      for (const material of materials) material.dispose();
    },
  };
}

export type ScanViewer = ReturnType<typeof createViewer>;
