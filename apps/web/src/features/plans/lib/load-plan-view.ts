import { t } from '@lingui/core/macro';
import { endpoints, planViewAnswer, type PlanArch, type PlanVersion, type PlanViewAnswer } from '@portal/contract';
import { Mesh, type Group, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { readWithProgress } from '../../../lib/load-mesh-view.ts';
import { meshoptDecoder } from '../../../lib/meshopt-decoder.ts';
import { withOverview } from '../../../lib/model-canvas.ts';

/** One tooth (a closed shell of the arch's mesh) and where each stage puts it. */
export interface PlanShell {
  node: Object3D;
  /** Per stage 0..N: x, y, z. */
  translations: ArrayLike<number>;
  /** Per stage 0..N: the rotation quaternion x, y, z, w. */
  rotations: ArrayLike<number>;
}

/** An arch of a plan version as the server's copy holds it (docs/decisions/meshes.md § Meshes for viewing). */
export interface PlanArchView {
  arch: PlanArch;
  /** Stage 0's teeth: a node per shell, each holding its mesh. */
  scene: Group;
  shells: PlanShell[];
  /** The last stage (stage 0 is the first). */
  stages: number;
}

const withIds = (path: string, plan: Pick<PlanVersion, 'caseId' | 'planId'>) =>
  path.replace(':caseId', String(plan.caseId)).replace(':planId', String(plan.planId));

/** Whether each arch's copy is ready; undefined when the server could not say (the viewer then loads the stage files). */
export async function fetchPlanViewState(
  plan: Pick<PlanVersion, 'caseId' | 'planId'>,
  signal: AbortSignal,
): Promise<PlanViewAnswer | undefined> {
  const response = await fetch(withIds(endpoints.planView.path, plan), { credentials: 'include', signal });
  return response.ok ? planViewAnswer.parse(await response.json()) : undefined;
}

/**
 * Loads an arch's copy: one GLB of stage 0's teeth (meshopt-compressed, decoded in Web
 * Workers) and the "stages" animation, a STEP keyframe per stage for each tooth's node. The
 * geometries are kept once; showing a stage only moves the nodes.
 */
export async function loadPlanArchView(
  plan: Pick<PlanVersion, 'caseId' | 'planId'>,
  arch: PlanArch,
  signal: AbortSignal,
  onProgress: (share: number) => void,
  /** Where the arch's GLB is, when not at the plan's own route (a patient link's). */
  meshUrl?: string,
): Promise<PlanArchView> {
  const url = meshUrl ?? withIds(endpoints.planViewMesh.path, plan).replace(':arch', arch);
  const response = await fetch(url, { credentials: 'include', signal });
  // Its words are shown to people, in the reason the plan's copy could not be loaded.
  const status = response.status;
  if (!response.ok) throw new Error(t`the server answered ${status}`);
  const data = await readWithProgress(response, onProgress);
  const gltf = await new GLTFLoader().setMeshoptDecoder(await meshoptDecoder()).parseAsync(data, '');
  const clip = gltf.animations.find((animation) => animation.name === 'stages');
  if (!clip) throw new Error(t`its copy holds no stages`);
  const shells = new Map<string, Partial<PlanShell>>();
  for (const track of clip.tracks) {
    const dot = track.name.lastIndexOf('.');
    const [nodeName, property] = [track.name.slice(0, dot), track.name.slice(dot + 1)];
    const shell = shells.get(nodeName) ?? { node: gltf.scene.getObjectByName(nodeName) };
    if (property === 'position') shell.translations = track.values;
    if (property === 'quaternion') shell.rotations = track.values;
    shells.set(nodeName, shell);
  }
  gltf.scene.traverse((object) => {
    // Copies made before normals were added carry none: shading needs them.
    if (object instanceof Mesh && !object.geometry.getAttribute('normal')) object.geometry.computeVertexNormals();
  });
  // Each tooth's full mesh and its overview become one LOD: the overview while the whole arch is in view (model-canvas.ts).
  for (const shell of shells.values()) {
    const node = shell.node;
    const detail = node?.getObjectByName(`${node.name}-detail`);
    const overview = node?.getObjectByName(`${node.name}-overview`);
    if (node && detail && overview) node.add(withOverview(detail, overview));
  }
  const complete = [...shells.values()].filter(
    (shell): shell is PlanShell => !!shell.node && !!shell.translations && !!shell.rotations,
  );
  return { arch, scene: gltf.scene, shells: complete, stages: Math.round(clip.duration) };
}

/** Frees an arch's geometries (the viewer does when it closes; this is for one it never showed). */
export function disposePlanArchView(view: PlanArchView): void {
  view.scene.traverse((object) => {
    if (object instanceof Mesh) object.geometry.dispose();
  });
}
