/**
 * Synthetic progress scans (issue 42), shaped as a scanner gives them: one arch of the plan
 * that dental-meshes.ts generates, in the middle of its treatment, with each tooth where the
 * test puts it (on its planned stage, stuck at an earlier one, or a little behind), seen as
 * an intraoral scanner sees it: crowns only, cut at a gum line that moves with each tooth, a
 * band of gum around the arch, a tessellation of its own (not the plan's vertices), noise on
 * every vertex, and the whole in the scanner's frame (rotated and shifted). Lengths in mm.
 */

import { StlWriter } from './binary-stl-writer.ts';
import {
  archFrame,
  planArchSurfaces,
  seededRandom,
  sphereGridFor,
  toothSurface,
  tubeIndices,
  type Arch,
  type GeneratedToothSurface,
  type PlanOptions,
} from './dental-meshes.ts';
import { axisAngle, randomDirection, transformPoints, type Matrix3, type Vec3 } from './rigid-motion.ts';

export interface ProgressScanOptions {
  arch: Arch;
  /** The plan the patient wears aligners of (dental-meshes.ts's options). */
  plan?: PlanOptions;
  /** The mouth scanned, when not the plan's own patient (another seed, another size). */
  patient?: PlanOptions;
  /** The aligner worn: every tooth not named below is where this stage puts it. */
  stage: number;
  /** Teeth (Universal numbers) stuck at an earlier stage: the latest one at least 0.8 mm or 3 degrees from `stage`. */
  stuck?: number[];
  /** Teeth short of `stage` by this distance, back along the way they came. */
  behind?: { tooth: number; mm: number }[];
  /** Teeth not in the scan (out of view). */
  missing?: number[];
  /** Triangles of each tooth's surface before its crown is cut out (default 24,000: about 12,000 a crown). */
  trianglesPerTooth?: number;
  /** Triangles of the gum band (default 60,000). */
  gumTriangles?: number;
  /** The share of a tooth's height above its gum line (default 0.5). */
  crownShare?: number;
  /** Standard deviation of the noise on every vertex (default 0.025 mm). */
  noiseMm?: number;
  /** The scanner's frame: a rotation of this many degrees about a random axis and a shift of this many mm (default 10-40 degrees, 5-15 mm). */
  frame?: { degrees: number; shiftMm: number };
  /** Seed of the scan's own randomness (frame, noise). */
  seed?: number;
}

/** Where a tooth is, in the plan's frame: its centroid and its rotation (row-major) from its own axes. */
export interface ToothPose {
  centroid: Vec3;
  rotation: Matrix3;
}

export interface ProgressScan {
  stl: Uint8Array;
  /** The plan's teeth (Universal number, axes, every stage's pose). */
  planned: GeneratedToothSurface[];
  /** Each scanned tooth's true pose, by Universal number. */
  actual: Map<number, ToothPose>;
  /** Plan frame to scanner frame: x' = rotation x + offset. */
  scanner: ToothPose;
}

const offTrackMm = 0.8;
const offTrackDeg = 3;

export function progressScan(options: ProgressScanOptions): ProgressScan {
  const { arch, stage, stuck = [], behind = [], missing = [], trianglesPerTooth = 24_000 } = options;
  const { gumTriangles = 60_000, crownShare = 0.5, noiseMm = 0.025, seed = 7 } = options;
  const planned = planArchSurfaces(arch, options.plan);
  const patient = options.patient ? planArchSurfaces(arch, options.patient) : planned;
  const random = seededRandom(seed);
  const frameDegrees = options.frame?.degrees ?? 10 + 30 * random();
  const shiftMm = options.frame?.shiftMm ?? 5 + 10 * random();
  const scanner: ToothPose = {
    rotation: axisAngle(randomDirection(random), (frameDegrees * Math.PI) / 180),
    centroid: randomDirection(random).map((value) => value * shiftMm) as Vec3,
  };
  const actual = new Map<number, ToothPose>();
  const shells: { positions: Float64Array; indices: Uint32Array }[] = [];
  const cuts: Vec3[] = [];
  const { segments, rings } = sphereGridFor(trianglesPerTooth);
  for (const tooth of patient) {
    if (missing.includes(tooth.universal)) continue;
    const pose = poseOf(
      tooth,
      stage,
      stuck.includes(tooth.universal),
      behind.find((b) => b.tooth === tooth.universal),
    );
    actual.set(tooth.universal, pose);
    // The plan's centring, so that this tessellation is of the very surface of the plan's shell.
    const { shape, indices } = toothSurface(tooth.surface, segments, rings);
    const crown = cutCrown(shape, indices, crownShare);
    const world = new Float64Array(crown.positions.length);
    transformPoints(crown.positions, pose.rotation, pose.centroid, world);
    shells.push({ positions: world, indices: crown.indices });
    const cut: Vec3 = [0, 0, crown.cutHeight];
    const cutWorld = new Float64Array(3);
    transformPoints(Float64Array.from(cut), pose.rotation, pose.centroid, cutWorld);
    cuts.push([cutWorld[0]!, cutWorld[1]!, cutWorld[2]!]);
  }
  shells.push(gumBand(arch, cuts, gumTriangles, options.patient?.scale ?? 1));
  const triangles = shells.reduce((sum, shell) => sum + shell.indices.length / 3, 0);
  const stl = new StlWriter(triangles);
  for (const { positions, indices } of shells) {
    const placed = new Float64Array(positions.length);
    transformPoints(positions, scanner.rotation, scanner.centroid, placed);
    for (let i = 0; i < placed.length; i++) placed[i]! += gaussian(random) * noiseMm;
    stl.addShell(placed, indices);
  }
  return { stl: stl.bytes, planned, actual, scanner };
}

function poseOf(
  tooth: GeneratedToothSurface,
  stage: number,
  isStuck: boolean,
  behind: { mm: number } | undefined,
): ToothPose {
  const at = (k: number): ToothPose => ({ centroid: tooth.centroids[k]!, rotation: tooth.rotations[k]! });
  if (isStuck) {
    for (let k = stage - 1; k >= 0; k--) {
      const { mm, degrees } = difference(at(k), at(stage));
      if (mm >= offTrackMm || degrees >= offTrackDeg) return at(k);
    }
    // Not that far from its start: pushed back the rest of the way, away from its planned place.
    const away = tooth.buccal.map((value) => -value * offTrackMm) as Vec3;
    return { ...at(0), centroid: tooth.centroids[0]!.map((value, axis) => value + away[axis]!) as Vec3 };
  }
  if (behind) {
    const target = at(stage);
    const back = tooth.centroids[0]!.map((value, axis) => value - target.centroid[axis]!) as Vec3;
    const length = Math.hypot(...back) || 1;
    return {
      rotation: target.rotation,
      centroid: target.centroid.map((value, axis) => value + (back[axis]! / length) * behind.mm) as Vec3,
    };
  }
  return at(stage);
}

/** How far apart two poses of a tooth are: its centroid's distance and the angle of the rotation between them. */
export function difference(a: ToothPose, b: ToothPose): { mm: number; degrees: number } {
  const mm = Math.hypot(...a.centroid.map((value, axis) => value - b.centroid[axis]!));
  // trace(A^T B) = 1 + 2 cos(angle)
  let trace = 0;
  for (let row = 0; row < 3; row++)
    for (let column = 0; column < 3; column++) trace += a.rotation[row * 3 + column]! * b.rotation[row * 3 + column]!;
  const degrees = (Math.acos(Math.max(-1, Math.min(1, (trace - 1) / 2))) * 180) / Math.PI;
  return { mm, degrees };
}

/** The triangles of the tooth above its gum line (in its own axes, z towards the crown): the top `share` of its height. */
function cutCrown(shape: Float64Array, indices: Uint32Array, share: number) {
  let [low, high] = [Infinity, -Infinity];
  for (let i = 2; i < shape.length; i += 3) [low, high] = [Math.min(low, shape[i]!), Math.max(high, shape[i]!)];
  const cutHeight = high - share * (high - low);
  const kept: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const corners = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    if (corners.every((vertex) => shape[vertex * 3 + 2]! > cutHeight)) kept.push(...corners);
  }
  return { positions: shape, indices: Uint32Array.from(kept), cutHeight };
}

/**
 * The gum: a tube along the arch curve under the crowns' gum lines, reaching a little past
 * the last teeth.
 */
function gumBand(arch: Arch, cuts: Vec3[], triangles: number, scale: number) {
  const crownWay = arch === 'lower' ? 1 : -1;
  // Just short of the deepest gum line, so that no gum lies over a crown the scan shows.
  const deepest = crownWay > 0 ? Math.min(...cuts.map((cut) => cut[2])) : Math.max(...cuts.map((cut) => cut[2]));
  const gumLine = deepest - crownWay * 0.3;
  const [halfWidth, halfHeight] = [5.5 * scale, 3];
  const around = 48;
  const along = Math.max(8, Math.floor(triangles / (2 * around)) - 1);
  const halfLength = 62 * scale;
  const positions = new Float64Array(((along + 1) * around + 2) * 3);
  for (let ring = 0; ring <= along; ring++) {
    const s = -halfLength + (2 * halfLength * ring) / along;
    const { point, outward } = archFrame(s, 11 * scale);
    for (let j = 0; j < around; j++) {
      const angle = (2 * Math.PI * j) / around;
      const at = (ring * around + j) * 3;
      const across = halfWidth * Math.cos(angle);
      positions[at] = point[0] + outward[0] * across;
      positions[at + 1] = point[1] + outward[1] * across;
      positions[at + 2] = gumLine - crownWay * halfHeight * (1 - Math.sin(angle));
    }
  }
  const firstCap = (along + 1) * around;
  for (const [cap, s] of [
    [firstCap, -halfLength],
    [firstCap + 1, halfLength],
  ] as const) {
    const { point } = archFrame(s, 11 * scale);
    positions.set([point[0], point[1], gumLine - crownWay * halfHeight], cap * 3);
  }
  return { positions, indices: Uint32Array.from(tubeIndices(around, along, firstCap, firstCap + 1)) };
}

/** A standard normal number (Box-Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
