import {
  DoubleSide,
  Mesh,
  MeshStandardMaterial,
  Vector3,
  type BufferGeometry,
  type Matrix4,
  type Object3D,
} from 'three';
import { createModelCanvas, withOverview, type PreparedCanvas } from '../../lib/model-canvas.ts';
import { showViewPreset, type ViewPreset } from './view-presets.ts';

const viewDirection = new Vector3(0.35, 0.35, 1).normalize();

/** A scan to show: its geometry, where it sits, its colour and its overview. */
export interface ShownMesh {
  geometry: BufferGeometry;
  matrix?: Matrix4;
  color: string;
  overview?: { geometry: BufferGeometry; matrix: Matrix4 };
}

/**
 * A canvas in `container`, made before the scans arrive (its WebGL context and size are set
 * up in a task of their own while they download: docs/decisions/viewer-first-open.md), that
 * `show` fills with the scans together: they share one coordinate frame, so the group (not
 * each mesh) is centred and the camera fits the joint bounding sphere, slightly from above and
 * to the side so the scans read as solids from the start.
 */
export function createViewer(container: HTMLElement, prepared?: PreparedCanvas) {
  const view = createModelCanvas(
    container,
    {
      ariaLabel: '3D view',
      background: '#f1f3f5',
      viewDirection,
    },
    prepared,
  );
  const materials: MeshStandardMaterial[] = [];
  let shown: Object3D[] = [];

  return {
    /** Shows `meshes`, the canvas named `ariaLabel`; the viewer frees their geometries when disposed. */
    show(meshes: ShownMesh[], ariaLabel: string) {
      view.setLabel(ariaLabel);
      shown = meshes.map(({ geometry, matrix, color, overview }) => {
        const material = new MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.05, side: DoubleSide });
        materials.push(material);
        const meshOf = (part: { geometry: BufferGeometry; matrix?: Matrix4 }) => {
          const mesh = new Mesh(part.geometry, material);
          // A viewing copy's quantized positions go back to millimetres through its matrix.
          part.matrix?.decompose(mesh.position, mesh.quaternion, mesh.scale);
          return mesh;
        };
        return overview ? withOverview(meshOf({ geometry, matrix }), meshOf(overview)) : meshOf({ geometry, matrix });
      });
      view.model.add(...shown);
      view.fit();
    },
    /** Shows or hides the scan at `index` of `meshes`. */
    setVisible(index: number, isVisible: boolean) {
      if (!shown[index]) return;
      shown[index].visible = isVisible;
      view.render();
    },
    setView: (preset: ViewPreset) => showViewPreset(view, preset, viewDirection),
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
