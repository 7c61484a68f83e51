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
const viewDirection = new Vector3(0.35, 0.35, 1).normalize();

/**
 * A canvas in `container` showing the meshes together: the scans share one coordinate
 * frame, so the group (not each mesh) is centred, and the camera fits the joint bounding
 * sphere. Orbit controls rotate, zoom and pan; the scene renders only when something moves.
 */
export function createViewer(
  container: HTMLElement,
  meshes: { geometry: BufferGeometry; color: string }[],
  ariaLabel: string,
): { dispose: () => void } {
  const renderer = new WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const canvas = renderer.domElement;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', ariaLabel);
  canvas.tabIndex = 0;
  Object.assign(canvas.style, { display: 'block', width: '100%', height: '100%', touchAction: 'none' });
  container.append(canvas);

  const scene = new Scene();
  scene.background = new Color('#f1f3f5');
  const model = new Group();
  for (const { geometry, color } of meshes) {
    model.add(
      new Mesh(geometry, new MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.05, side: DoubleSide })),
    );
  }
  scene.add(model);
  const bounds = new Box3().setFromObject(model);
  model.position.sub(bounds.getCenter(new Vector3()));
  const radius = Math.max(bounds.getBoundingSphere(new Sphere()).radius, 1e-3);

  const camera = new PerspectiveCamera(fieldOfView, 1, radius / 100, radius * 100);
  const headlight = new DirectionalLight(0xffffff, 1.6);
  headlight.position.set(0.5, 1, 1);
  camera.add(headlight);
  scene.add(camera, new HemisphereLight(0xffffff, 0x666666, 1.4));

  const controls = new OrbitControls(camera, canvas);
  controls.listenToKeyEvents(canvas);
  const render = () => renderer.render(scene, camera);
  controls.addEventListener('change', render);

  // The sphere must fit the narrower of the two fields of view.
  const fitCamera = (aspect: number) => {
    const vertical = MathUtils.degToRad(fieldOfView);
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * aspect);
    const distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.1;
    // Slightly from above and to the side, so the scans read as solids from the start.
    camera.position.copy(viewDirection).multiplyScalar(distance);
    controls.target.set(0, 0, 0);
    controls.update();
  };

  let hasFitted = false;
  const resize = () => {
    const { clientWidth: width, clientHeight: height } = container;
    if (!width || !height) return;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    if (!hasFitted) {
      fitCamera(camera.aspect);
      hasFitted = true;
    }
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();

  return {
    dispose() {
      observer.disconnect();
      controls.removeEventListener('change', render);
      controls.dispose();
      model.traverse((object) => {
        if (object instanceof Mesh) {
          (object.geometry as BufferGeometry).dispose();
          (object.material as MeshStandardMaterial).dispose();
        }
      });
      renderer.dispose();
      canvas.remove();
    },
  };
}
