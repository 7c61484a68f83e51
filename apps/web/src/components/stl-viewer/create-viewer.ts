import { DoubleSide, Mesh, MeshStandardMaterial, Vector3, type BufferGeometry, type Matrix4 } from 'three';
import { createModelCanvas } from '../../lib/model-canvas.ts';

/**
 * A canvas in `container` showing the scans together: they share one coordinate frame, so
 * the group (not each mesh) is centred and the camera fits the joint bounding sphere,
 * slightly from above and to the side so the scans read as solids from the start.
 */
export function createViewer(
  container: HTMLElement,
  meshes: { geometry: BufferGeometry; matrix?: Matrix4; color: string }[],
  ariaLabel: string,
): { dispose: () => void } {
  const view = createModelCanvas(container, {
    ariaLabel,
    background: '#f1f3f5',
    viewDirection: new Vector3(0.35, 0.35, 1).normalize(),
  });
  const shown = meshes.map(({ geometry, matrix, color }) => {
    const mesh = new Mesh(
      geometry,
      new MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.05, side: DoubleSide }),
    );
    // A viewing copy's quantized positions go back to millimetres through its matrix.
    if (matrix) matrix.decompose(mesh.position, mesh.quaternion, mesh.scale);
    return mesh;
  });
  view.model.add(...shown);
  view.fit();

  return {
    dispose() {
      view.dispose();
      for (const mesh of shown) {
        mesh.geometry.dispose();
        mesh.material.dispose();
      }
    },
  };
}
