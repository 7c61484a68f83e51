import { progressViewDistanceCapMm } from '@portal/contract';
import { Quaternion, Vector3, BufferAttribute, BufferGeometry } from 'three';
import { MeshBVH, type HitPointInfo } from 'three-mesh-bvh';
import { compress, io, meshOf, newDocument } from './derivative.ts';
import { overviewOf } from './overview.ts';
import type { ArchProgress, PlanArchForFit, ProgressFitOptions, Vec3 } from './progress-fit.ts';
import { withoutDegenerateTriangles, type IndexedMesh } from './weld.ts';

/**
 * A progress scan's viewing copy in its plan's frame (docs/decisions/progress-scans.md § The
 * overlay): the scan moved by the fit's placement of the arch, each vertex with its distance to
 * the planned teeth at the worn stage, as a GLB made as every scan's copy is (derivative.ts:
 * quantized, meshopt-compressed), so the browser decodes it the same way, in a worker.
 */

/**
 * The share of each planned tooth's height, from its occlusal end, that a scan may show as
 * crown: a crown is about 40% of a tooth's length, and the gum line moves as teeth do.
 */
const crownSide = 0.55;

/** Distances are kept up to this (mm); a vertex farther from every planned tooth, or nearest a root (the gum), holds it. */
const progressViewCapMm = progressViewDistanceCapMm;

export interface ProgressView {
  glb: Uint8Array<ArrayBuffer>;
  triangles: number;
}

/** Where the fit placed the scan in the plan's frame (progress-fit.ts's `toPlan`). */
export type ProgressPlacement = Extract<ArchProgress, { toPlan: unknown }>['toPlan'];

/**
 * The planned teeth, whole (roots too), where the plan puts them at `stage`: the scan's crowns
 * are measured against the teeth's whole surfaces, so a crown's cervical part, below what the
 * fit samples as crown, is not reported far off. Beside it, per vertex of the mesh, whether it
 * is on a tooth's crown side (the top `crownSide` of its height along its vertical axis): a
 * scan's point nearest a planned root is the gum over it.
 */
function plannedTeethAt(plan: PlanArchForFit, stage: number): { bvh: MeshBVH; onCrown: Uint8Array } {
  const motions = plan.stageMotions[stage - 1]!;
  const positions = new Float32Array(plan.positions.length);
  const point = new Vector3();
  const turn = new Quaternion();
  for (let vertex = 0; vertex < plan.shellOf.length; vertex++) {
    const m = motions.subarray(plan.shellOf[vertex]! * 7, plan.shellOf[vertex]! * 7 + 7);
    point.fromArray(plan.positions, vertex * 3).applyQuaternion(turn.set(m[3]!, m[4]!, m[5]!, m[6]!));
    positions[vertex * 3] = point.x + m[0]!;
    positions[vertex * 3 + 1] = point.y + m[1]!;
    positions[vertex * 3 + 2] = point.z + m[2]!;
  }
  // Heights at stage 0, in each tooth's own axes (a rigid motion keeps them).
  const onCrown = new Uint8Array(plan.shellOf.length);
  for (const tooth of plan.teeth) {
    const height = (vertex: number) =>
      plan.positions[vertex * 3]! * tooth.vertical[0] +
      plan.positions[vertex * 3 + 1]! * tooth.vertical[1] +
      plan.positions[vertex * 3 + 2]! * tooth.vertical[2];
    let [low, high] = [Infinity, -Infinity];
    for (let vertex = 0; vertex < plan.shellOf.length; vertex++) {
      if (plan.shellOf[vertex] !== tooth.shell) continue;
      [low, high] = [Math.min(low, height(vertex)), Math.max(high, height(vertex))];
    }
    const floor = high - crownSide * (high - low);
    for (let vertex = 0; vertex < plan.shellOf.length; vertex++) {
      if (plan.shellOf[vertex] === tooth.shell && height(vertex) >= floor) onCrown[vertex] = 1;
    }
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  // A copy of the index: the BVH reorders it.
  geometry.setIndex(new BufferAttribute(plan.indices.slice(), 1));
  return { bvh: new MeshBVH(geometry), onCrown };
}

/** The scan's vertices placed by `toPlan`, and each one's distance to the planned teeth at `stage` (at most the cap). */
export function placeAndMeasure(
  plan: PlanArchForFit,
  scan: IndexedMesh,
  toPlan: { r: number[]; t: Vec3 },
  stage: number,
): { positions: Float32Array<ArrayBuffer>; distances: Float32Array<ArrayBuffer> } {
  const planned = plannedTeethAt(plan, stage);
  const plannedIndex = planned.bvh.geometry.index!.array;
  const { r, t } = toPlan;
  const source = scan.positions;
  const positions = new Float32Array(source.length);
  const distances = new Float32Array(source.length / 3);
  const probe = new Vector3();
  const hit: HitPointInfo = { point: new Vector3(), distance: 0, faceIndex: 0 };
  for (let v = 0; v < distances.length; v++) {
    const [x, y, z] = [source[v * 3]!, source[v * 3 + 1]!, source[v * 3 + 2]!];
    probe.set(
      r[0]! * x + r[1]! * y + r[2]! * z + t[0],
      r[3]! * x + r[4]! * y + r[5]! * z + t[1],
      r[6]! * x + r[7]! * y + r[8]! * z + t[2],
    );
    positions[v * 3] = probe.x;
    positions[v * 3 + 1] = probe.y;
    positions[v * 3 + 2] = probe.z;
    const isNear = planned.bvh.closestPointToPoint(probe, hit, 0, progressViewCapMm);
    // Nearest a planned root: the gum over it, drawn as what the plan has not.
    const isOnCrown = isNear && planned.onCrown[plannedIndex[hit.faceIndex * 3]!] === 1;
    distances[v] = isOnCrown ? Math.min(hit.distance, progressViewCapMm) : progressViewCapMm;
  }
  return { positions, distances };
}

/**
 * How much a millimetre of distance weighs against a millimetre of shape when the overview is
 * simplified (`overviewErrorMm`, overview.ts): where the shape allows, the interpolated distance strays at most
 * `overviewErrorMm` / this (0.1 mm) from the scan's own, so a step across a colour band's edge
 * (0.25 mm, the off-track distance, the gum's cap) is not collapsed. The distance carries the
 * scanner's noise as the positions do: weighed as the shape (1), the overview of the test's
 * scan kept 31% of its triangles rather than 29% (26% on positions alone).
 */
const progressOverviewDistanceWeight = 0.5;

/**
 * The copy: two nodes, as every scan's copy has (derivative.ts): `detail`, every triangle, and
 * `overview`, simplified within `overviewErrorMm` with the distance as an attribute
 * (overview.ts), which the overlay draws while the whole arch is in view. Each has the vertex
 * attribute `_DISTANCE`, the distance over the cap (0-1, so it is quantized as the normals
 * are; the viewer multiplies it back): the overview's vertices are the scan's, each with its
 * own distance. The detail node's extras hold `offTrackMm`, the lab's off-track distance the fit used.
 */
export async function makeProgressView(
  plan: PlanArchForFit,
  scan: IndexedMesh,
  toPlan: { r: number[]; t: Vec3 },
  options: ProgressFitOptions,
): Promise<ProgressView> {
  const { positions, distances } = placeAndMeasure(plan, scan, toPlan, options.stage);
  const mesh = withoutDegenerateTriangles({ positions, indices: scan.indices });
  const overview = await overviewOf(mesh, { values: distances, weight: progressOverviewDistanceWeight });
  const document = newDocument();
  const buffer = document.getRoot().listBuffers()[0]!;
  const scene = document.createScene();
  for (const [name, part, partDistances] of [
    ['detail', mesh, distances],
    ['overview', overview, overview.values],
  ] as const) {
    const shares = new Float32Array(partDistances.length);
    for (let v = 0; v < shares.length; v++) shares[v] = partDistances[v]! / progressViewCapMm;
    const gltfMesh = meshOf(document, part);
    gltfMesh
      .listPrimitives()[0]!
      .setAttribute('_DISTANCE', document.createAccessor().setType('SCALAR').setArray(shares).setBuffer(buffer));
    // The off-track distance the teeth were judged by, for the viewer's colour scale.
    scene.addChild(document.createNode(name).setMesh(gltfMesh).setExtras({ offTrackMm: options.offTrackMm }));
  }
  await compress(document);
  const glb = await io.writeBinary(document);
  return { glb: glb as Uint8Array<ArrayBuffer>, triangles: mesh.indices.length / 3 };
}
