import type { ServerMessageCode, ServerMessageParams } from '@portal/contract/server-messages';
import { EigenvalueDecomposition, Matrix, solve } from 'ml-matrix';
import { BufferAttribute, BufferGeometry, Vector3 } from 'three';
import { MeshBVH, type HitPointInfo } from 'three-mesh-bvh';
import type { IndexedMesh } from './weld.ts';

/**
 * A progress scan against its plan's stage, tooth by tooth (docs/decisions/progress-scans.md):
 * the planned crowns of the worn stage are fitted into the scan, first as one arch (a coarse
 * start from the arch's shape, then a trimmed point-to-plane ICP), then each tooth alone; the
 * teeth whose own fits agree with one rigid placement of the arch are the anchors, the arch is
 * fitted again on them alone, and each tooth's deviation is its own fit seen from the arch's.
 * Closest points come from a bounding-volume hierarchy of the scan (three-mesh-bvh).
 */

export type Vec3 = [number, number, number];

/** A tooth of the plan: its shell in the stage meshes, its Universal number, its axes at stage 0 (tooth-movements.ts). */
export interface PlannedTooth {
  shell: number;
  tooth: number;
  mesial: Vec3;
  buccal: Vec3;
  vertical: Vec3;
}

/** One arch of a plan as plan-view.ts reads it: stage 0's welded mesh, its shells, and per stage from 1 each shell's motion. */
export interface PlanArchForFit {
  positions: Float32Array;
  indices: Uint32Array;
  shellOf: Uint32Array;
  /** Per stage from 1: per shell translation (x, y, z) then rotation quaternion (x, y, z, w), moving stage 0 onto the stage. */
  stageMotions: Float64Array[];
  teeth: PlannedTooth[];
}

export interface ProgressFitOptions {
  /** The aligner worn: a stage from 1 to the plan's last. */
  stage: number;
  offTrackMm: number;
  offTrackDeg: number;
}

export interface ToothProgress {
  tooth: number;
  offsetMm: number;
  angleDeg: number;
  translationMm: { mesiodistal: number; buccolingual: number; vertical: number };
  rotationDeg: { tip: number; torque: number; rotation: number };
  matchedStage: number;
  /** The share of the movement planned from stage 0 to the worn stage that the tooth made; null when almost none was planned. */
  achievedPercent: number | null;
  offTrack: boolean;
}

export type ArchProgress =
  | {
      rmsMm: number;
      anchorTeeth: number[];
      teeth: ToothProgress[];
      notInView: number[];
      /** The anchored arch's placement of the scan in the plan's frame: x_plan = r x_scan + t, r row-major (progress-view.ts draws the scan there). */
      toPlan: { r: number[]; t: Vec3 };
    }
  | FitRefusal;

/** Why a scan is not fitted: its reason's code in the contract's `serverMessages`, and its values. */
export type FitRefusal = { refused: { code: ServerMessageCode; params: ServerMessageParams } };

/** Crown points sampled per tooth for its own fit, and of those for the arch's. */
const samplesPerTooth = 400;
const archSamplesPerTooth = 120;
/**
 * The scan's points fitted onto each tooth: a few for the first fit from the arch's rough
 * placement, many for the last, since the scanner's noise averages out over them (a
 * crown's turn about its long axis is the least held).
 */
const firstFitPoints = 600;
const finalFitPoints = 2500;
/** The top of each tooth, along its vertical axis, that a scan shows as crown. */
const crownShare = 0.4;
/** A planned point counts as seen when the scan lies this close after its tooth's fit. */
const seenMm = 0.3;
/** Teeth whose fits place one another's crowns this close (RMS) agree on the arch's placement. */
const agreeMm = 0.1;
/** A tooth is in view when this share of its crown is seen after its own fit, at most this far (RMS). */
const inViewShare = 0.5;
const shapeMm = 0.12;
/** Fewer anchors than this, or than this share of the teeth in view, and the scan does not fit the plan. */
const leastAnchors = 4;
const leastAnchorShare = 0.4;

interface Rigid {
  /** Row-major 3 x 3. */
  r: Float64Array;
  t: Vec3;
}

interface Samples {
  /** Planned at the worn stage, in the plan's frame: points and unit normals, x, y, z each. */
  points: Float64Array;
  normals: Float64Array;
}

interface ToothSamples extends PlannedTooth {
  /** Vertex ids on the crown, in stage 0's mesh. */
  vertices: Uint32Array;
  atStage: Samples;
  /** Its centre (stage 0's vertex mean) moved to the worn stage, and its axes there. */
  centre: Vec3;
  /** The sampled crown's centre at the worn stage, and the farthest a sample lies from it. */
  crownCentre: Vec3;
  crownRadius: number;
  /** Which vertices of stage 0 are its crown (what a scan shows of it). */
  isCrown: (vertex: number) => boolean;
  axes: { mesial: Vec3; buccal: Vec3; vertical: Vec3 };
}

export function fitProgressScan(plan: PlanArchForFit, scan: IndexedMesh, options: ProgressFitOptions): ArchProgress {
  const target = scanTarget(scan);
  const scanNormals = vertexNormals(scan.positions, scan.indices);
  const normals = vertexNormals(plan.positions, plan.indices);
  const teeth = plan.teeth.map((tooth) => toothSamples(plan, normals, tooth, options.stage));
  const everyTooth = (perTooth: number) => joinSamples(teeth.map((tooth) => subsample(tooth.atStage, perTooth)));

  // The arch as a whole: the best of the coarse starts, then refined.
  const coarse = everyTooth(60);
  let arch = coarseStarts(coarse.points, target)
    .map((start) => icp(target, coarse, start, [5, 4, 3, 2.5, 2, 1.5, 1.2, 1]))
    .sort((a, b) => b.inliers - a.inliers)[0]!.transform;
  arch = icp(target, everyTooth(archSamplesPerTooth), arch, [2, 1.5, 1.2, 1, 0.8, 0.6, 0.5, 0.4, 0.3], 40).transform;

  // Each tooth alone, from the arch's placement: the scan's points around it fitted onto its
  // planned crown. That way round, the scanner's noise is on the points, where least squares
  // average it out; on the surface fitted to, its tilted little faces would bias the fit.
  const crowns = new Map(teeth.map((tooth) => [tooth, crownTarget(plan, tooth, options.stage)]));
  const fitTooth = (tooth: ToothSamples, from: Rigid, points: number) => {
    const centre = apply(from, tooth.crownCentre);
    const near = scanPointsNear(scan.positions, scanNormals, centre, tooth.crownRadius + 2.5, points);
    const fit = icp(crowns.get(tooth)!, near, invert(from), [2.5, 2, 1.5, 1, 0.8, 0.6, 0.5, 0.4, 0.3, 0.25], 30);
    const transform = invert(fit.transform);
    return { tooth, transform, ...seenShare(target, tooth.atStage, transform) };
  };
  type Fit = ReturnType<typeof fitTooth>;
  const isShaped = (fit: Fit) => fit.share >= inViewShare && fit.rms <= shapeMm;
  let fits = teeth.map((tooth) => fitTooth(tooth, arch, firstFitPoints));

  // The anchors: the largest group of teeth whose own fits agree with one placement of the arch.
  let group: Fit[] = [];
  for (const candidate of fits.filter(isShaped)) {
    const agreeing = fits.filter(
      (other) => isShaped(other) && disagreement(other.tooth.atStage, candidate.transform, other.transform) <= agreeMm,
    );
    if (agreeing.length > group.length) group = agreeing;
  }
  if (group.length >= 2) {
    const grouped = joinSamples(group.map((fit) => fit.tooth.atStage));
    arch = icp(target, grouped, group[0]!.transform, [0.5, 0.4, 0.3, 0.25], 40).transform;
    // A tooth the arch's first placement put far off may have fitted something else (its
    // neighbour's crown), and one that fitted slowly stopped short: each again, from the anchored placement.
    fits = fits.map((fit) => fitTooth(fit.tooth, arch, finalFitPoints));
  }

  // A tooth is in view when its crown fits the scan: enough of it seen, closely.
  const inView = fits.filter(isShaped);
  const anchors = inView.filter((fit) => disagreement(fit.tooth.atStage, arch, fit.transform) <= agreeMm);
  if (anchors.length < Math.max(leastAnchors, Math.ceil(leastAnchorShare * inView.length))) {
    // Another patient, the other arch and a scan of a few teeth look alike from here: too few
    // of the plan's crowns fit the scan together. The message names each.
    const needed = Math.max(leastAnchors, Math.ceil(leastAnchorShare * inView.length));
    return {
      refused: { code: 'progressScanDoesNotFit', params: { found: anchors.length, teeth: teeth.length, needed } },
    };
  }
  const fromScan = invert(arch);
  return {
    rmsMm: round(residual(target, joinSamples(anchors.map((fit) => fit.tooth.atStage)), arch), 3),
    anchorTeeth: anchors.map((fit) => fit.tooth.tooth).sort((a, b) => a - b),
    teeth: inView
      .map((fit) => toothProgress(plan, fit.tooth, compose(fromScan, fit.transform), options))
      .sort((a, b) => a.tooth - b.tooth),
    notInView: fits
      .filter((fit) => !inView.includes(fit))
      .map((fit) => fit.tooth.tooth)
      .sort((a, b) => a - b),
    toPlan: { r: Array.from(fromScan.r), t: fromScan.t },
  };
}

// ---- The scan

interface Target {
  bvh: MeshBVH;
  /** Unit normal per triangle, in the BVH's triangle order. */
  faceNormals: Float32Array;
  positions: Float32Array;
}

function scanTarget({ positions, indices }: IndexedMesh): Target {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.setIndex(new BufferAttribute(indices, 1));
  // The BVH reorders the index: face normals are taken after it, in its order.
  const bvh = new MeshBVH(geometry);
  const index = geometry.index!.array;
  const faceNormals = new Float32Array(index.length);
  for (let t = 0; t < index.length; t += 3) {
    const [a, b, c] = [index[t]! * 3, index[t + 1]! * 3, index[t + 2]! * 3];
    const n = faceNormal(positions, a, b, c);
    const length = Math.hypot(...n) || 1;
    faceNormals.set([n[0] / length, n[1] / length, n[2] / length], t);
  }
  return { bvh, faceNormals, positions };
}

/** The scan's vertices within `radius` of `centre`, at most `most` of them evenly, with their normals. */
function scanPointsNear(
  positions: Float32Array,
  normals: Float32Array,
  centre: Vec3,
  radius: number,
  most: number,
): Samples {
  const near: number[] = [];
  const squared = radius * radius;
  for (let v = 0; v < positions.length; v += 3) {
    const [dx, dy, dz] = [positions[v]! - centre[0], positions[v + 1]! - centre[1], positions[v + 2]! - centre[2]];
    if (dx * dx + dy * dy + dz * dz <= squared) near.push(v);
  }
  const step = Math.max(1, near.length / most);
  const picked = Array.from({ length: Math.min(most, near.length) }, (_, i) => near[Math.floor(i * step)]!);
  return {
    points: Float64Array.from(picked.flatMap((v) => [positions[v]!, positions[v + 1]!, positions[v + 2]!])),
    normals: Float64Array.from(picked.flatMap((v) => [normals[v]!, normals[v + 1]!, normals[v + 2]!])),
  };
}

/** A tooth's crown as planned at `stage`, for fitting the scan's points onto. */
function crownTarget(plan: PlanArchForFit, tooth: ToothSamples, stage: number): Target {
  const motion = stageMotion(plan, tooth.shell, stage);
  const kept: number[] = [];
  for (let t = 0; t < plan.indices.length; t += 3) {
    const corners = [plan.indices[t]!, plan.indices[t + 1]!, plan.indices[t + 2]!];
    if (corners.every(tooth.isCrown)) kept.push(...corners);
  }
  const used = [...new Set(kept)];
  const renumbered = new Map(used.map((vertex, i) => [vertex, i]));
  const positions = new Float32Array(used.length * 3);
  used.forEach((vertex, i) => {
    const p = plan.positions;
    positions.set(apply(motion, [p[vertex * 3]!, p[vertex * 3 + 1]!, p[vertex * 3 + 2]!]), i * 3);
  });
  return scanTarget({ positions, indices: Uint32Array.from(kept, (vertex) => renumbered.get(vertex)!) });
}

/** The triangle (a, b, c: offsets of its corners in `positions`) edge by edge: its normal, as long as twice its area. */
function faceNormal(positions: Float32Array, a: number, b: number, c: number): Vec3 {
  const e1: Vec3 = [
    positions[b]! - positions[a]!,
    positions[b + 1]! - positions[a + 1]!,
    positions[b + 2]! - positions[a + 2]!,
  ];
  const e2: Vec3 = [
    positions[c]! - positions[a]!,
    positions[c + 1]! - positions[a + 1]!,
    positions[c + 2]! - positions[a + 2]!,
  ];
  return cross(e1, e2);
}

// ---- The plan's crowns

function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    // Not normalised: each face weighs by its area.
    const n = faceNormal(positions, a, b, c);
    for (const vertex of [a, b, c]) for (let axis = 0; axis < 3; axis++) normals[vertex + axis]! += n[axis]!;
  }
  for (let v = 0; v < normals.length; v += 3) {
    const length = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!) || 1;
    for (let axis = 0; axis < 3; axis++) normals[v + axis]! /= length;
  }
  return normals;
}

/** The motion of `shell` at `stage` (identity at 0). */
function stageMotion(plan: PlanArchForFit, shell: number, stage: number): Rigid {
  if (stage === 0) return identity();
  const m = plan.stageMotions[stage - 1]!.subarray(shell * 7, shell * 7 + 7);
  return { r: quaternionMatrix(m[3]!, m[4]!, m[5]!, m[6]!), t: [m[0]!, m[1]!, m[2]!] };
}

function toothSamples(plan: PlanArchForFit, normals: Float32Array, tooth: PlannedTooth, stage: number): ToothSamples {
  const { positions, shellOf } = plan;
  const own: number[] = [];
  const centre: Vec3 = [0, 0, 0];
  for (let vertex = 0; vertex < shellOf.length; vertex++) {
    if (shellOf[vertex] !== tooth.shell) continue;
    own.push(vertex);
    for (let axis = 0; axis < 3; axis++) centre[axis]! += positions[vertex * 3 + axis]!;
  }
  for (let axis = 0; axis < 3; axis++) centre[axis]! /= own.length;
  const height = (vertex: number) =>
    (positions[vertex * 3]! - centre[0]) * tooth.vertical[0] +
    (positions[vertex * 3 + 1]! - centre[1]) * tooth.vertical[1] +
    (positions[vertex * 3 + 2]! - centre[2]) * tooth.vertical[2];
  let [low, high] = [Infinity, -Infinity];
  for (const vertex of own) [low, high] = [Math.min(low, height(vertex)), Math.max(high, height(vertex))];
  const crown = own.filter((vertex) => height(vertex) >= high - crownShare * (high - low));
  // Evenly through the crown's vertices: the same points every run.
  const step = Math.max(1, crown.length / samplesPerTooth);
  const vertices = Uint32Array.from(
    { length: Math.min(samplesPerTooth, crown.length) },
    (_, i) => crown[Math.floor(i * step)]!,
  );
  const motion = stageMotion(plan, tooth.shell, stage);
  const atStage = movedSamples(positions, normals, vertices, motion);
  const crownCentre: Vec3 = [0, 0, 0];
  for (let i = 0; i < atStage.points.length; i++) crownCentre[i % 3]! += atStage.points[i]! / vertices.length;
  let crownRadius = 0;
  for (let i = 0; i < atStage.points.length; i += 3) {
    const d = subtract([atStage.points[i]!, atStage.points[i + 1]!, atStage.points[i + 2]!], crownCentre);
    crownRadius = Math.max(crownRadius, Math.hypot(...d));
  }
  const crownFloor = high - crownShare * (high - low);
  return {
    ...tooth,
    vertices,
    atStage,
    crownCentre,
    crownRadius,
    isCrown: (vertex) => shellOf[vertex] === tooth.shell && height(vertex) >= crownFloor,
    centre: apply(motion, centre),
    axes: {
      mesial: rotate(motion.r, tooth.mesial),
      buccal: rotate(motion.r, tooth.buccal),
      vertical: rotate(motion.r, tooth.vertical),
    },
  };
}

function movedSamples(positions: Float32Array, normals: Float32Array, vertices: Uint32Array, motion: Rigid): Samples {
  const points = new Float64Array(vertices.length * 3);
  const moved = new Float64Array(vertices.length * 3);
  vertices.forEach((vertex, i) => {
    const p = apply(motion, [positions[vertex * 3]!, positions[vertex * 3 + 1]!, positions[vertex * 3 + 2]!]);
    const n = rotate(motion.r, [normals[vertex * 3]!, normals[vertex * 3 + 1]!, normals[vertex * 3 + 2]!]);
    points.set(p, i * 3);
    moved.set(n, i * 3);
  });
  return { points, normals: moved };
}

function subsample({ points, normals }: Samples, count: number): Samples {
  const n = points.length / 3;
  const step = Math.max(1, n / count);
  const picked = Array.from({ length: Math.min(count, n) }, (_, i) => Math.floor(i * step));
  return {
    points: Float64Array.from(picked.flatMap((i) => [points[i * 3]!, points[i * 3 + 1]!, points[i * 3 + 2]!])),
    normals: Float64Array.from(picked.flatMap((i) => [normals[i * 3]!, normals[i * 3 + 1]!, normals[i * 3 + 2]!])),
  };
}

function joinSamples(parts: Samples[]): Samples {
  const length = parts.reduce((sum, part) => sum + part.points.length, 0);
  const joined = { points: new Float64Array(length), normals: new Float64Array(length) };
  let at = 0;
  for (const part of parts) {
    joined.points.set(part.points, at);
    joined.normals.set(part.normals, at);
    at += part.points.length;
  }
  return joined;
}

// ---- Coarse starts from the arch's shape

/**
 * Rigid placements of the planned crowns on the scan from their principal axes: across the
 * arch (the widest spread), front to back, and the occlusal normal (the least). The signs,
 * and which of the first two is which, are not known from the spread alone: all eight
 * right-handed choices are tried, and the ICP keeps the one most of the crown fits.
 */
function coarseStarts(planPoints: Float64Array, target: Target): Rigid[] {
  const plan = principalAxes(planPoints, 1);
  const scan = principalAxes(target.positions, Math.max(1, Math.floor(target.positions.length / 3 / 20_000)));
  const starts: Rigid[] = [];
  for (const swap of [false, true]) {
    for (const [s1, s3] of [
      [1, 1],
      [1, -1],
      [-1, 1],
      [-1, -1],
    ] as const) {
      // Plan axis k goes to scan axis image[k] times its sign; the third sign keeps det = +1.
      const images = swap ? [1, 0, 2] : [0, 1, 2];
      const signs = [s1, 0, s3];
      const parity = swap ? -1 : 1;
      signs[1] = parity * s1 * s3;
      const r = new Float64Array(9);
      for (let k = 0; k < 3; k++) {
        const from = plan.axes[k]!;
        const to = scan.axes[images[k]!]!;
        for (let row = 0; row < 3; row++)
          for (let column = 0; column < 3; column++) r[row * 3 + column]! += signs[k]! * to[row]! * from[column]!;
      }
      const t = subtract(scan.mean, rotate(r, plan.mean));
      starts.push({ r, t });
    }
  }
  return starts;
}

function principalAxes(points: Float32Array | Float64Array, stride: number): { mean: Vec3; axes: Vec3[] } {
  const mean: Vec3 = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < points.length; i += 3 * stride, n++)
    for (let axis = 0; axis < 3; axis++) mean[axis]! += points[i + axis]!;
  for (let axis = 0; axis < 3; axis++) mean[axis]! /= n;
  const covariance = Matrix.zeros(3, 3);
  for (let i = 0; i < points.length; i += 3 * stride) {
    const d = [points[i]! - mean[0], points[i + 1]! - mean[1], points[i + 2]! - mean[2]];
    for (let row = 0; row < 3; row++)
      for (let column = 0; column < 3; column++)
        covariance.set(row, column, covariance.get(row, column) + d[row]! * d[column]!);
  }
  const { realEigenvalues: values, eigenvectorMatrix: vectors } = new EigenvalueDecomposition(covariance, {
    assumeSymmetric: true,
  });
  const order = [0, 1, 2].sort((a, b) => values[b]! - values[a]!);
  const axes = order.map((column) => unit(vectors.getColumn(column) as Vec3));
  // Right-handed, so that a rotation maps one frame onto the other.
  if (dot(cross(axes[0]!, axes[1]!), axes[2]!) < 0) axes[2] = scale(axes[2]!, -1);
  return { mean, axes };
}

// ---- ICP

const probe = new Vector3();
const hit: HitPointInfo = { point: new Vector3(), distance: 0, faceIndex: 0 };

/**
 * Trimmed point-to-plane ICP, one round per entry of `thresholds` (the farthest a pair may be,
 * in mm): pairs whose normals disagree by more than 60 degrees are dropped, then the farthest
 * tenth; each round solves the linearised 6 x 6 system about the points' centre.
 */
function icp(target: Target, samples: Samples, start: Rigid, thresholds: number[], settle = 0) {
  let transform = start;
  let inliers = 0;
  let rms = Infinity;
  const count = samples.points.length / 3;
  // Each pair (the moved point x, its closest point q, the target's normal m) in one typed array
  // rather than objects: a round's pairs lived long enough to be promoted, and the fit's thread
  // took 20-37 MB more at its peak (docs/benchmarks.md § The progress scan job). Same arithmetic.
  const pairs = new Float64Array(count * 9);
  const distances = new Float64Array(count);
  const order: number[] = [];
  // After the schedule, up to `settle` more rounds at its last threshold, until a round moves the points less than a micrometre.
  const rounds = [...thresholds, ...Array<number>(settle).fill(thresholds.at(-1)!)];
  for (const [round, threshold] of rounds.entries()) {
    const { r, t } = transform;
    let found = 0;
    for (let i = 0; i < count; i++) {
      const [px, py, pz] = [samples.points[i * 3]!, samples.points[i * 3 + 1]!, samples.points[i * 3 + 2]!];
      const x0 = r[0]! * px + r[1]! * py + r[2]! * pz + t[0];
      const x1 = r[3]! * px + r[4]! * py + r[5]! * pz + t[1];
      const x2 = r[6]! * px + r[7]! * py + r[8]! * pz + t[2];
      probe.set(x0, x1, x2);
      if (!target.bvh.closestPointToPoint(probe, hit, 0, threshold)) continue;
      const f = hit.faceIndex * 3;
      const [m0, m1, m2] = [target.faceNormals[f]!, target.faceNormals[f + 1]!, target.faceNormals[f + 2]!];
      const [nx, ny, nz] = [samples.normals[i * 3]!, samples.normals[i * 3 + 1]!, samples.normals[i * 3 + 2]!];
      const n0 = r[0]! * nx + r[1]! * ny + r[2]! * nz;
      const n1 = r[3]! * nx + r[4]! * ny + r[5]! * nz;
      const n2 = r[6]! * nx + r[7]! * ny + r[8]! * nz;
      if (n0 * m0 + n1 * m1 + n2 * m2 < 0.5) continue;
      pairs.set([x0, x1, x2, hit.point.x, hit.point.y, hit.point.z, m0, m1, m2], found * 9);
      distances[found] = hit.distance;
      found++;
    }
    inliers = found;
    if (found < 12) break;
    // Nearest first (a stable sort, as of the pairs themselves), the farthest tenth dropped.
    order.length = found;
    for (let k = 0; k < found; k++) order[k] = k;
    order.sort((a, b) => distances[a]! - distances[b]!);
    const kept = order.slice(0, Math.ceil(found * 0.9));
    rms = Math.sqrt(kept.reduce((sum, k) => sum + distances[k]! ** 2, 0) / kept.length);
    const step = solveStep(pairs, kept);
    if (!step) break;
    transform = compose(step, transform);
    if (round >= thresholds.length - 1 && disagreement(samples, step, identity()) < 0.001) break;
  }
  return { transform, inliers, rms };
}

/** The linearised point-to-plane step over the pairs `kept` (indices into `pairs`: x, q, m each). */
function solveStep(pairs: Float64Array, kept: number[]): Rigid | undefined {
  const c: Vec3 = [0, 0, 0];
  for (const k of kept) for (let axis = 0; axis < 3; axis++) c[axis]! += pairs[k * 9 + axis]! / kept.length;
  const ata = new Float64Array(36);
  const atb = new Float64Array(6);
  for (const k of kept) {
    const x: Vec3 = [pairs[k * 9]!, pairs[k * 9 + 1]!, pairs[k * 9 + 2]!];
    const q: Vec3 = [pairs[k * 9 + 3]!, pairs[k * 9 + 4]!, pairs[k * 9 + 5]!];
    const m: Vec3 = [pairs[k * 9 + 6]!, pairs[k * 9 + 7]!, pairs[k * 9 + 8]!];
    const a = [...cross(subtract(x, c), m), ...m];
    const b = -dot(subtract(x, q), m);
    for (let i = 0; i < 6; i++) {
      atb[i]! += a[i]! * b;
      for (let j = 0; j < 6; j++) ata[i * 6 + j]! += a[i]! * a[j]!;
    }
  }
  let z: number[];
  try {
    const rows = [0, 1, 2, 3, 4, 5].map((i) => Array.from(ata.subarray(i * 6, i * 6 + 6)));
    z = solve(new Matrix(rows), Matrix.columnVector(Array.from(atb))).getColumn(0);
  } catch {
    return undefined;
  }
  if (!z.every(Number.isFinite)) return undefined;
  const r = axisAngleMatrix([z[0]!, z[1]!, z[2]!]);
  // x' = R (x - c) + c + tau
  const t = add(subtract(c, rotate(r, c)), [z[3]!, z[4]!, z[5]!]);
  return { r, t };
}

/** The share of a tooth's points the scan shows within `seenMm` under `transform`, and their RMS distance. */
function seenShare(target: Target, samples: Samples, transform: Rigid) {
  const count = samples.points.length / 3;
  let seen = 0;
  let squares = 0;
  for (let i = 0; i < count; i++) {
    const x = apply(transform, [samples.points[i * 3]!, samples.points[i * 3 + 1]!, samples.points[i * 3 + 2]!]);
    probe.set(x[0], x[1], x[2]);
    if (!target.bvh.closestPointToPoint(probe, hit, 0, seenMm)) continue;
    seen++;
    squares += hit.distance ** 2;
  }
  return { share: seen / count, rms: seen > 0 ? Math.sqrt(squares / seen) : Infinity };
}

/** The RMS distance of the scan from the samples placed by `transform`, over those it shows. */
function residual(target: Target, samples: Samples, transform: Rigid): number {
  return seenShare(target, samples, transform).rms;
}

/** How far apart two placements put a tooth's points (RMS, mm). */
function disagreement({ points }: Samples, a: Rigid, b: Rigid): number {
  let squares = 0;
  const count = points.length / 3;
  for (let i = 0; i < count; i++) {
    const p: Vec3 = [points[i * 3]!, points[i * 3 + 1]!, points[i * 3 + 2]!];
    const d = subtract(apply(a, p), apply(b, p));
    squares += dot(d, d);
  }
  return Math.sqrt(squares / count);
}

// ---- One tooth's deviation

/** `deviation` moves the tooth from where the plan puts it at the worn stage to where the scan shows it, in the plan's frame. */
function toothProgress(
  plan: PlanArchForFit,
  tooth: ToothSamples,
  deviation: Rigid,
  options: ProgressFitOptions,
): ToothProgress {
  const { stage, offTrackMm, offTrackDeg } = options;
  const moved = subtract(apply(deviation, tooth.centre), tooth.centre);
  const turned = rotationVector(deviation.r);
  const { mesial, buccal, vertical } = tooth.axes;
  const offsetMm = Math.hypot(...moved);
  const angleDeg = degrees(Math.hypot(...turned));
  // Where the scan puts the crown's points, against where each stage puts them.
  const positions = plan.positions;
  const normals = new Float32Array(positions.length);
  const actualPoints = new Float64Array(tooth.atStage.points.length);
  for (let i = 0; i < actualPoints.length; i += 3) {
    actualPoints.set(
      apply(deviation, [tooth.atStage.points[i]!, tooth.atStage.points[i + 1]!, tooth.atStage.points[i + 2]!]),
      i,
    );
  }
  const stages = plan.stageMotions.length;
  const pointsAt = (k: number) =>
    movedSamples(positions, normals, tooth.vertices, stageMotion(plan, tooth.shell, k)).points;
  let matchedStage = stage;
  let nearest = Infinity;
  for (let k = 0; k <= stages; k++) {
    const distance = rmsBetween(actualPoints, pointsAt(k));
    if (distance < nearest) [nearest, matchedStage] = [distance, k];
  }
  const start = pointsAt(0);
  let planned = 0;
  let made = 0;
  for (let i = 0; i < start.length; i++) {
    const p = tooth.atStage.points[i]! - start[i]!;
    planned += p * p;
    made += (actualPoints[i]! - start[i]!) * p;
  }
  const plannedRms = Math.sqrt(planned / (start.length / 3));
  return {
    tooth: tooth.tooth,
    offsetMm: round(offsetMm, 3),
    angleDeg: round(angleDeg, 2),
    translationMm: {
      mesiodistal: round(dot(moved, mesial), 3),
      buccolingual: round(dot(moved, buccal), 3),
      vertical: round(dot(moved, vertical), 3),
    },
    // As in the movement table (tooth-movements.ts): tip moves the crown mesially, torque buccally; rotation turns the mesial side buccally.
    rotationDeg: {
      tip: round(degrees(dot(turned, cross(vertical, mesial))), 2),
      torque: round(degrees(dot(turned, cross(vertical, buccal))), 2),
      rotation: round(degrees(dot(turned, cross(mesial, buccal))), 2),
    },
    matchedStage,
    achievedPercent: plannedRms < 0.05 ? null : Math.round((100 * made) / planned),
    offTrack: offsetMm > offTrackMm || angleDeg > offTrackDeg,
  };
}

function rmsBetween(a: Float64Array, b: Float64Array): number {
  let squares = 0;
  for (let i = 0; i < a.length; i++) squares += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(squares / (a.length / 3));
}

// ---- Small linear algebra

const round = (value: number, digits: number) => Number(value.toFixed(digits)) + 0;
const degrees = (radians: number) => (radians * 180) / Math.PI;
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const subtract = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
const unit = (a: Vec3) => scale(a, 1 / (Math.hypot(...a) || 1));
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const identity = (): Rigid => ({ r: Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1), t: [0, 0, 0] });
const rotate = (r: Float64Array, v: Vec3): Vec3 => [
  r[0]! * v[0] + r[1]! * v[1] + r[2]! * v[2],
  r[3]! * v[0] + r[4]! * v[1] + r[5]! * v[2],
  r[6]! * v[0] + r[7]! * v[1] + r[8]! * v[2],
];
const apply = ({ r, t }: Rigid, v: Vec3): Vec3 => add(rotate(r, v), t);

/** a after b. */
function compose(a: Rigid, b: Rigid): Rigid {
  const r = new Float64Array(9);
  for (let row = 0; row < 3; row++)
    for (let column = 0; column < 3; column++)
      r[row * 3 + column] =
        a.r[row * 3]! * b.r[column]! + a.r[row * 3 + 1]! * b.r[3 + column]! + a.r[row * 3 + 2]! * b.r[6 + column]!;
  return { r, t: apply(a, b.t) };
}

function invert({ r, t }: Rigid): Rigid {
  const transposed = Float64Array.of(r[0]!, r[3]!, r[6]!, r[1]!, r[4]!, r[7]!, r[2]!, r[5]!, r[8]!);
  return { r: transposed, t: scale(rotate(transposed, t), -1) };
}

function quaternionMatrix(x: number, y: number, z: number, w: number): Float64Array {
  return Float64Array.of(
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  );
}

/** Rodrigues: the rotation by the vector `v` (axis times angle). */
function axisAngleMatrix(v: Vec3): Float64Array {
  const angle = Math.hypot(...v);
  if (angle < 1e-15) return identity().r;
  const [x, y, z] = scale(v, 1 / angle);
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const k = 1 - c;
  return Float64Array.of(
    k * x * x + c,
    k * x * y - s * z,
    k * x * z + s * y,
    k * x * y + s * z,
    k * y * y + c,
    k * y * z - s * x,
    k * x * z - s * y,
    k * y * z + s * x,
    k * z * z + c,
  );
}

/** The rotation as a vector: its axis times its angle (radians). */
function rotationVector(r: Float64Array): Vec3 {
  const cosine = Math.max(-1, Math.min(1, (r[0]! + r[4]! + r[8]! - 1) / 2));
  const angle = Math.acos(cosine);
  const axis: Vec3 = [r[7]! - r[5]!, r[2]! - r[6]!, r[3]! - r[1]!];
  const sine = Math.hypot(...axis) / 2;
  if (sine < 1e-12) return [0, 0, 0];
  return scale(axis, angle / (2 * sine));
}
