import { DoubleSide, Mesh, MeshStandardMaterial, Vector3, type BufferGeometry } from 'three';
import { createModelCanvas } from '../../../../lib/model-canvas.ts';

export type ArchSlot = 'upper' | 'lower' | 'ghostUpper' | 'ghostLower';

const colors: Record<ArchSlot, string> = {
  upper: '#e9ecef',
  lower: '#ffe8cc',
  ghostUpper: '#1c7ed6',
  ghostLower: '#1c7ed6',
};

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
    viewDirection: new Vector3(0, 0.25, 1).normalize(),
  });
  const meshes = {} as Record<ArchSlot, Mesh<BufferGeometry, MeshStandardMaterial>>;
  for (const slot of ['upper', 'lower', 'ghostUpper', 'ghostLower'] as const) {
    const isGhost = slot.startsWith('ghost');
    const material = new MeshStandardMaterial({
      color: colors[slot],
      roughness: 0.5,
      metalness: 0.05,
      side: DoubleSide,
      transparent: isGhost,
      opacity: isGhost ? 0.28 : 1,
      depthWrite: !isGhost,
    });
    const mesh = new Mesh(undefined, material);
    mesh.visible = false;
    mesh.renderOrder = isGhost ? 1 : 0;
    meshes[slot] = mesh;
    view.model.add(mesh);
  }

  let hasFitted = false;
  return {
    /** Puts each slot's geometry in place (undefined hides the slot) and renders once. */
    show(slots: Partial<Record<ArchSlot, BufferGeometry | undefined>>) {
      for (const slot of Object.keys(meshes) as ArchSlot[]) {
        const geometry = slots[slot];
        const mesh = meshes[slot];
        mesh.visible = geometry !== undefined;
        if (geometry) mesh.geometry = geometry;
      }
      if (!hasFitted) hasFitted = view.fit();
      view.render();
    },
    dispose() {
      view.dispose();
      for (const mesh of Object.values(meshes)) mesh.material.dispose();
    },
  };
}

export type StageViewer = ReturnType<typeof createStageViewer>;
