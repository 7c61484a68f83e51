import {
  Box3,
  type BufferGeometry,
  Color,
  DirectionalLight,
  Group,
  HemisphereLight,
  LOD,
  type Material,
  type Matrix4,
  MathUtils,
  Mesh,
  MeshBasicMaterial,
  OrthographicCamera,
  PlaneGeometry,
  type Object3D,
  PerspectiveCamera,
  Raycaster,
  Scene,
  Sphere,
  Vector2,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
  WebGLRenderTarget,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { framePoints, type Framing } from './arch-frame.ts';
import type { WebGlProbeAnswer } from './webgl-probe-worker.ts';

const fieldOfView = 40;
/** How close (a share of the distance that fits the model) the view comes before the full meshes replace their overviews. */
const detailFrom = 0.6;

/** Renderers that draw WebGL on the CPU: SwiftShader (Chromium without a usable GPU), Mesa's llvmpipe, Windows' basic driver. */
const softwareRenderer = /SwiftShader|llvmpipe|softpipe|Software|Basic Render/i;

/**
 * Finds out whether this browser draws WebGL in software (below), reading the renderer's name
 * in a worker where it can: the context that costs waits there rather than on the page's main
 * thread. The scan viewer asks for it while its scans download, before it makes its canvas
 * (docs/decisions/viewer-first-open.md).
 */
let probe: Promise<void> | undefined;
function detectSoftwareWebGl(): Promise<void> {
  probe ??= new Promise<string | null>((resolve) => {
    try {
      const worker = new Worker(new URL('./webgl-probe-worker.ts', import.meta.url), { type: 'module' });
      const answer = (name: string | null) => {
        worker.terminate();
        resolve(name);
      };
      worker.onmessage = (event: MessageEvent<WebGlProbeAnswer>) => answer(event.data.name);
      worker.onerror = () => answer(null);
    } catch {
      resolve(null);
    }
  }).then((name) => {
    isSoftware ??= name === null ? isSoftwareWebGl() : softwareRenderer.test(name);
  });
  return probe;
}

/** Whether this browser draws WebGL in software: its unmasked renderer name, where the browser gives it. */
function isSoftwareWebGl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl!.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  return softwareRenderer.test(name);
}

/**
 * Antialiased where a GPU does it. Drawn in software (a computer without a usable GPU, a
 * remote desktop), 4x multisampling made each frame of a plan several times slower
 * (docs/benchmarks.md § Viewer on real-sized meshes), so there it draws without. Chromium
 * does not report SwiftShader as a "major performance caveat", hence the renderer's name.
 */
let isSoftware: boolean | undefined;
function createRenderer(prepared?: PreparedCanvas): WebGLRenderer {
  isSoftware ??= isSoftwareWebGl();
  const renderer = new WebGLRenderer({ antialias: !isSoftware, ...prepared });
  // Reading a shader's compile status waits for the compile (seconds in software): the
  // development build checks, the built app lets the GPU process compile on its own.
  renderer.debug.checkShaderErrors = import.meta.env.DEV;
  return renderer;
}

/** A canvas and its WebGL context, made before the viewer (prepareCanvas). */
export interface PreparedCanvas {
  canvas: HTMLCanvasElement;
  context: WebGL2RenderingContext;
}

/**
 * A canvas with its WebGL context, resolved once the GPU process has set the context up. Made
 * and read at once (as three's renderer does when it makes its own), the first reads of the
 * context waited on the page's main thread for that set-up: 20-170 ms in software depending on
 * how busy the machine is (docs/decisions/viewer-first-open.md). Undefined without WebGL 2
 * (the renderer then finds that out itself).
 */
export async function prepareCanvas(): Promise<PreparedCanvas | undefined> {
  await detectSoftwareWebGl();
  const canvas = document.createElement('canvas');
  // three's own attributes (WebGLRenderer's defaults), the multisampling chosen as it would be.
  const context = canvas.getContext('webgl2', {
    alpha: false,
    depth: true,
    stencil: false,
    antialias: !isSoftware,
    premultipliedAlpha: true,
    preserveDrawingBuffer: false,
    powerPreference: 'default',
    failIfMajorPerformanceCaveat: false,
  });
  if (!context) return undefined;
  await commandsDone(context);
  return { canvas, context };
}

/** Resolves once the GPU process has run every command sent before the call (a fence, polled; never waited on). */
function commandsDone(gl: WebGL2RenderingContext): Promise<void> {
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  return new Promise((resolve) => {
    const probe = () => {
      // A lost context answers WAIT_FAILED (or no fence at all): nothing is drawn then anyway.
      if (sync && gl.clientWaitSync(sync, 0, 0) === gl.TIMEOUT_EXPIRED) return void setTimeout(probe, 4);
      if (sync) gl.deleteSync(sync);
      resolve();
    };
    probe();
  });
}

/**
 * How a frame reaches the canvas. With a GPU, drawn into it at once. Drawn in software, the
 * page shows the canvas by reading it back, and that read waits on the main thread for every
 * command sent before it: a whole frame, 150-400 ms for a plan's stage on a 2-core machine
 * (docs/benchmarks.md § Viewer on real-sized meshes). There a frame is drawn into a target
 * off screen, sent just after the page has shown its last frame (so no read of the canvas
 * queues behind it), and copied to the canvas (one quad) once the GPU process has drawn it:
 * the page never waits on it. Changes that come meanwhile are drawn together in the next one.
 */
function createFramePresenter(
  renderer: WebGLRenderer,
  draw: (target: WebGLRenderTarget | null) => void,
  compile: (target: WebGLRenderTarget) => Promise<unknown>,
  /** Called once, when the GPU process has run the first frame shown on the canvas. */
  onFirstFrame: () => void,
) {
  const gl = renderer.getContext() as WebGL2RenderingContext;
  let isFirst = true;
  const shown = () => {
    if (!isFirst) return;
    isFirst = false;
    void commandsDone(gl).then(onFirstFrame);
  };
  if (!isSoftware) {
    return {
      target: null,
      request: () => {
        draw(null);
        shown();
      },
      resize: () => {},
      dispose: () => {},
    };
  }
  const target = new WebGLRenderTarget(1, 1, { colorSpace: SRGBColorSpace, depthBuffer: true });
  // The copy: a quad over the whole canvas showing the target, its shader compiled in the background now.
  const copy = new Mesh(new PlaneGeometry(2, 2), new MeshBasicMaterial({ map: target.texture }));
  const copyCamera = new OrthographicCamera(-1, 1, 1, -1, 0, 1);
  // In a later task: building the program is tens of milliseconds of script on a busy machine.
  setTimeout(() => {
    if (!isDisposed) void renderer.compileAsync(copy, copyCamera).catch(() => {});
  }, 0);
  let state: 'idle' | 'waiting' | 'drawing' = 'idle';
  let isWanted = false;
  let isDisposed = false;
  let hasFrame = false;
  const drawNow = async () => {
    if (isDisposed) return;
    state = 'drawing';
    // Shaders met for the first time (a marker, the ghost) compile in the background first:
    // drawn at once, the frame would wait for them on the page's main thread.
    await compile(target).catch(() => {});
    if (isDisposed) return;
    draw(target);
    void commandsDone(renderer.getContext() as WebGL2RenderingContext).then(() => {
      if (isDisposed) return;
      renderer.render(copy, copyCamera);
      hasFrame = true;
      shown();
      state = 'idle';
      if (isWanted) {
        isWanted = false;
        request();
      }
    });
  };
  const request = () => {
    if (state === 'drawing') isWanted = true;
    if (state !== 'idle') return;
    state = 'waiting';
    // After the next frame is shown: its read of the canvas has been sent by then.
    requestAnimationFrame(() => setTimeout(() => void drawNow(), 0));
  };
  return {
    /** Where frames are drawn: shaders compiled for it in advance (their programs differ from the canvas's). */
    target,
    request,
    resize: (width: number, height: number) => {
      // A resized canvas is blank: the last frame, stretched, until the next one is drawn.
      if (hasFrame && state !== 'drawing') renderer.render(copy, copyCamera);
      target.setSize(width, height);
    },
    dispose: () => {
      isDisposed = true;
      target.dispose();
      copy.geometry.dispose();
      copy.material.dispose();
    },
  };
}

/**
 * A mesh and its overview as one object: the overview while the whole model is in view
 * (and until the camera is placed), the mesh itself once the view comes closer than
 * `detailFrom` of the fitted distance (set by `fit`).
 */
export function withOverview(detail: Object3D, overview: Object3D): LOD {
  const lod = new LOD();
  lod.addLevel(detail, 0);
  lod.addLevel(overview, 0);
  return lod;
}

/**
 * A viewing copy (load-mesh-view.ts) as drawn, in `material`: its mesh placed by its matrix (the
 * positions are quantized; the matrix maps them back to millimetres), with its overview when it
 * has one (`withOverview`).
 */
export function meshOfCopy(
  copy: { geometry: BufferGeometry; matrix?: Matrix4; overview?: { geometry: BufferGeometry; matrix: Matrix4 } },
  material: Material,
): Object3D {
  const meshOf = (part: { geometry: BufferGeometry; matrix?: Matrix4 }) => {
    const mesh = new Mesh(part.geometry, material);
    part.matrix?.decompose(mesh.position, mesh.quaternion, mesh.scale);
    return mesh;
  };
  return copy.overview ? withOverview(meshOf(copy), meshOf(copy.overview)) : meshOf(copy);
}

export interface ModelCanvasOptions {
  ariaLabel: string;
  background: string;
  /** Where the camera looks from, towards the model's centre. */
  viewDirection: Vector3;
}

/**
 * What the scan viewer and the plan's stage viewer share: a canvas in `container` (an
 * `img` with its label, focusable, keyboard-orbitable) with a lit scene, orbit controls,
 * and a `model` group the caller fills. `fit()` centres the group and places the camera
 * so its bounding sphere fills the narrower field of view, once the canvas has a size;
 * later resizes keep the user's view. The scene renders only when something changes.
 */
export function createModelCanvas(container: HTMLElement, options: ModelCanvasOptions, prepared?: PreparedCanvas) {
  const renderer = createRenderer(prepared);
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const canvas = renderer.domElement;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', options.ariaLabel);
  canvas.tabIndex = 0;
  // Hidden (so neither painted nor read back by the compositor) until its first frame has been
  // drawn: in software, showing the canvas earlier made the page wait, on its main thread, for the
  // GPU process to set up the context, compile and draw (docs/decisions/viewer-first-open.md).
  Object.assign(canvas.style, {
    display: 'block',
    width: '100%',
    height: '100%',
    touchAction: 'none',
    visibility: 'hidden',
  });
  container.append(canvas);

  const scene = new Scene();
  scene.background = new Color(options.background);
  const model = new Group();
  scene.add(model);

  const camera = new PerspectiveCamera(fieldOfView, 1, 0.1, 10_000);
  const headlight = new DirectionalLight(0xffffff, 1.6);
  headlight.position.set(0.5, 1, 1);
  camera.add(headlight);
  scene.add(camera, new HemisphereLight(0xffffff, 0x666666, 1.4));

  const controls = new OrbitControls(camera, canvas);
  controls.listenToKeyEvents(canvas);
  /** Set while the model's shaders compile: the frame is drawn once they have. */
  let compiling: Promise<void> | undefined;
  /**
   * Starts compiling, in the background, the shaders of what is visible for drawing into
   * `target`. Where the browser cannot compile in parallel (no KHR_parallel_shader_compile:
   * Chromium's SwiftShader), compileAsync resolves at once and the GPU process compiles and
   * links in its queue; the first frame's reads of the program (its uniforms and attributes)
   * would wait for that on the main thread (docs/decisions/viewer-first-open.md). So when new
   * programs were made, it resolves only once the GPU process has run them (a fence, polled).
   */
  const compileFor = (target: WebGLRenderTarget | null): Promise<unknown> => {
    const programs = renderer.info.programs?.length ?? 0;
    renderer.setRenderTarget(target);
    const compiled = renderer.compileAsync(scene, camera);
    renderer.setRenderTarget(null);
    if ((renderer.info.programs?.length ?? 0) === programs) return compiled;
    return compiled.then(() => commandsDone(renderer.getContext() as WebGL2RenderingContext));
  };
  const frames = createFramePresenter(
    renderer,
    (target) => {
      renderer.setRenderTarget(target);
      renderer.render(scene, camera);
      renderer.setRenderTarget(null);
    },
    compileFor,
    () => (canvas.style.visibility = ''),
  );
  /** Set while `fit` places the camera: the controls announce the change, and the shaders have not compiled yet. */
  let isFitting = false;
  const render = () => {
    // Nothing is drawn before `fit` has found a model (a canvas made before its meshes arrive).
    if (!compiling && !isFitting && radius) frames.request();
  };
  controls.addEventListener('change', render);

  let radius = 0;
  let hasFitted = false;
  /** What `fit` frames: a sample of the model's points, when the caller gave one (lib/arch-frame.ts). */
  let framed: { points: Float32Array; framing?: Framing } | undefined;
  const placeCamera = () => {
    if (!radius || !container.clientWidth || !container.clientHeight) return;
    let distance: number;
    if (framed?.framing) {
      // The model's sample fills the view: its target at the centre of the orbit.
      const placed = framed.framing.at(camera.aspect);
      model.position.copy(placed.target).negate();
      distance = placed.distance;
    } else {
      const vertical = MathUtils.degToRad(fieldOfView);
      const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
      distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.1;
    }
    camera.near = radius / 100;
    camera.far = radius * 100;
    camera.position.copy(options.viewDirection).multiplyScalar(distance);
    camera.updateProjectionMatrix();
    controls.target.set(0, 0, 0);
    controls.update();
    hasFitted = true;
    // A model with an overview (a LOD of two levels): drawn while the whole of it is in view,
    // the full mesh once the view comes closer than `detailFrom` of the fitted distance.
    model.updateMatrixWorld(true);
    model.traverse((object) => {
      if (!(object instanceof LOD) || object.levels.length !== 2) return;
      object.levels[1]!.distance = camera.position.distanceTo(object.getWorldPosition(new Vector3())) * detailFrom;
    });
  };

  let size = '';
  const resize = () => {
    const { clientWidth: width, clientHeight: height } = container;
    // The observer's first call reports the size the canvas already has: resizing it again would clear it.
    if (!width || !height || size === `${width}x${height}`) return;
    size = `${width}x${height}`;
    renderer.setSize(width, height, false);
    const drawn = renderer.getDrawingBufferSize(new Vector2());
    frames.resize(drawn.x, drawn.y);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    if (!hasFitted) placeCamera();
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();

  return {
    model,
    render,
    /** Names the canvas (its accessible name) once what it shows is known. */
    setLabel(ariaLabel: string) {
      canvas.setAttribute('aria-label', ariaLabel);
    },
    /**
     * Centres the model (false while it is still empty) and fits the camera to it, as it is turned
     * now: to `points` (a sample of it in its own coordinates, kept for the next fits) so that they
     * fill the view, or without a sample, to its bounding sphere.
     */
    fit(points?: Float32Array): boolean {
      if (points) framed = { points };
      model.position.set(0, 0, 0);
      if (framed && framed.points.length >= 3) {
        framed.framing = framePoints(framed.points, model.quaternion, options.viewDirection, fieldOfView);
        radius = framed.framing.radius;
      } else {
        const bounds = new Box3().setFromObject(model);
        if (bounds.isEmpty()) return false;
        model.position.sub(bounds.getCenter(new Vector3()));
        radius = Math.max(bounds.getBoundingSphere(new Sphere()).radius, 1e-3);
      }
      hasFitted = false;
      // Drawn now, the frame would wait for every shader to compile and link (getProgramParameter):
      // most of a second in software, on the page's main thread.
      isFitting = true;
      placeCamera();
      isFitting = false;
      // The shaders of what is visible now compile in the GPU process (KHR_parallel_shader_compile)
      // before the first frame, rather than within it while the page waits (a second in software).
      // In a task of their own: building and sending the programs is tens of milliseconds of script.
      compiling = new Promise<unknown>((resolve) => setTimeout(resolve, 0))
        .then(() => compileFor(frames.target))
        .catch(() => {})
        .then(() => {
          compiling = undefined;
          // Not before the camera is placed (the canvas may have no size yet: resize() renders then).
          if (hasFitted) render();
        });
      return true;
    },
    /**
     * What is drawn under a point of the canvas (a click's clientX and clientY): the nearest
     * visible, opaque mesh hit, and where, in the model group's own coordinates.
     */
    pick(clientX: number, clientY: number): { object: Object3D; point: Vector3 } | undefined {
      const rect = canvas.getBoundingClientRect();
      const pointer = new Vector2(
        ((clientX - rect.left) / rect.width) * 2 - 1,
        -((clientY - rect.top) / rect.height) * 2 + 1,
      );
      const raycaster = new Raycaster();
      raycaster.setFromCamera(pointer, camera);
      const isShown = (object: Object3D | null): boolean => !object || (object.visible && isShown(object.parent));
      const hit = raycaster
        .intersectObject(model, true)
        .find(({ object }) => object instanceof Mesh && !(object.material as Material).transparent && isShown(object));
      return hit && { object: hit.object, point: model.worldToLocal(hit.point.clone()) };
    },
    /** Stops observing and frees the renderer; the caller frees its own geometries and materials. */
    dispose() {
      observer.disconnect();
      controls.removeEventListener('change', render);
      controls.dispose();
      frames.dispose();
      renderer.dispose();
      canvas.remove();
    },
  };
}
