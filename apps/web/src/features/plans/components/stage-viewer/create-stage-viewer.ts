import {
  Box3,
  Color,
  DirectionalLight,
  DoubleSide,
  Group,
  HemisphereLight,
  MathUtils,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  Sphere,
  Vector3,
  WebGLRenderer,
  type BufferGeometry,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

const fieldOfView = 40;
const viewDirection = new Vector3(0, 0.25, 1).normalize();

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
  const renderer = new WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const canvas = renderer.domElement;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', ariaLabel);
  canvas.tabIndex = 0;
  Object.assign(canvas.style, { display: 'block', width: '100%', height: '100%', touchAction: 'none' });
  container.append(canvas);

  const scene = new Scene();
  scene.background = new Color('#f8f9fa');
  const model = new Group();
  scene.add(model);
  const meshes = {} as Record<ArchSlot, Mesh>;
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
    model.add(mesh);
  }

  const camera = new PerspectiveCamera(fieldOfView, 1, 0.1, 10_000);
  const headlight = new DirectionalLight(0xffffff, 1.6);
  headlight.position.set(0.5, 1, 1);
  camera.add(headlight);
  scene.add(camera, new HemisphereLight(0xffffff, 0x666666, 1.4));

  const controls = new OrbitControls(camera, canvas);
  controls.listenToKeyEvents(canvas);
  const render = () => renderer.render(scene, camera);
  controls.addEventListener('change', render);

  let radius = 0;
  const fitCamera = () => {
    if (!radius) return;
    const vertical = MathUtils.degToRad(fieldOfView);
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
    const distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.1;
    camera.near = radius / 100;
    camera.far = radius * 100;
    camera.position.copy(viewDirection).multiplyScalar(distance);
    camera.updateProjectionMatrix();
    controls.target.set(0, 0, 0);
    controls.update();
  };

  const resize = () => {
    const { clientWidth: width, clientHeight: height } = container;
    if (!width || !height) return;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();

  return {
    /** Puts each slot's geometry in place (undefined hides the slot) and renders once. */
    show(slots: Partial<Record<ArchSlot, BufferGeometry | undefined>>) {
      for (const slot of Object.keys(meshes) as ArchSlot[]) {
        const geometry = slots[slot];
        const mesh = meshes[slot];
        mesh.visible = geometry !== undefined;
        if (geometry) mesh.geometry = geometry;
      }
      if (!radius) {
        model.position.set(0, 0, 0);
        const bounds = new Box3().setFromObject(model);
        if (!bounds.isEmpty()) {
          model.position.sub(bounds.getCenter(new Vector3()));
          radius = Math.max(bounds.getBoundingSphere(new Sphere()).radius, 1e-3);
          fitCamera();
        }
      }
      render();
    },
    dispose() {
      observer.disconnect();
      controls.removeEventListener('change', render);
      controls.dispose();
      for (const mesh of Object.values(meshes)) (mesh.material as MeshStandardMaterial).dispose();
      renderer.dispose();
      canvas.remove();
    },
  };
}

export type StageViewer = ReturnType<typeof createStageViewer>;
