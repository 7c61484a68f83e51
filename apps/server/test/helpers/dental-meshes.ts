/**
 * Synthetic dental meshes for tests and benchmarks, made here from a seed (no scan data is
 * shipped): a treatment plan's stages, each tooth a closed shell of its own moved a little
 * from one stage to the next, and a dense arch-shaped scan. Binary STL, as the lab's and
 * the doctors' software write them. Lengths in millimetres.
 */

import { StlWriter } from './binary-stl-writer.ts';
import {
  axisAngle,
  cross,
  multiply,
  randomDirection,
  transformPoints,
  type Matrix3,
  type Vec3,
} from './rigid-motion.ts';

export type Arch = 'upper' | 'lower';

export interface PlanOptions {
  seed?: number;
  /** Teeth in the arch, alternately right and left of the midline (default 14, at most 16). */
  teeth?: number;
  /** Stages after the starting position: stage files 0 to `stages` (default 30). */
  stages?: number;
  /** About this many triangles per tooth (default 10,600: 14 teeth make about 150k). */
  trianglesPerTooth?: number;
  /** The arch and its teeth this many times the usual size (default 1): another patient's mouth. */
  scale?: number;
  /** Teeth (Universal numbers) that stay where they are at every stage. */
  held?: number[];
  /** Each step's size times this (default 1): above 1, steps may go past `planStepLimits`. */
  stepScale?: number;
}

/** The most a tooth moves from one stage to the next: its centroid's translation, and its rotation about that centroid. */
export const planStepLimits = { translationMm: 0.3, rotationDegrees: 2 };

/**
 * Binary STLs of one arch of a plan, stage 0 (the starting position) first. Each tooth is a
 * closed shell of its own with the same triangles in the same order in every stage; from
 * each stage to the next it is moved rigidly by a seeded random translation and rotation
 * about its centroid within `planStepLimits`, adding up over the stages.
 */
export function* planArchStages(arch: Arch, options: PlanOptions = {}): Generator<Uint8Array> {
  for (const { placed, indices } of planArchSequence(arch, options)) {
    const world = new Float64Array(placed[0]!.shape.length);
    const stl = new StlWriter((placed.length * indices.length) / 3);
    for (const tooth of placed) {
      transformPoints(tooth.shape, tooth.rotation, tooth.centroid, world);
      stl.addShell(world, indices);
    }
    yield stl.bytes;
  }
}

/** What the generator knows of one tooth of `planArchStages` with the same arguments: where it is and how it moved. */
export interface GeneratedTooth {
  /** Its Universal number: the arch's z axis points to the upper arch, its front is -y, so the patient's right is -x. */
  universal: number;
  /** Its axes at stage 0 (unit vectors): along the arch towards the midline, out of the arch, towards the crown. */
  mesial: Vec3;
  buccal: Vec3;
  crown: Vec3;
  /** Per stage from 0: its centroid, and its rotation (row-major) from its own axes. */
  centroids: Vec3[];
  rotations: Matrix3[];
}

export function planArchTeeth(arch: Arch, options: PlanOptions = {}): GeneratedTooth[] {
  return planArchSurfaces(arch, options);
}

/** A tooth of `planArchStages` with the same arguments: its surface, and its place at each stage (row-major rotation from its own axes, and centroid). */
export interface GeneratedToothSurface extends GeneratedTooth {
  surface: ToothSurface;
}

export function planArchSurfaces(arch: Arch, options: PlanOptions = {}): GeneratedToothSurface[] {
  const teeth: GeneratedToothSurface[] = [];
  for (const { placed } of planArchSequence(arch, options)) {
    for (const [index, tooth] of placed.entries()) {
      teeth[index] ??= { ...tooth.truth, surface: tooth.surface, centroids: [], rotations: [] };
      teeth[index].centroids.push(tooth.centroid);
      teeth[index].rotations.push(tooth.rotation);
    }
  }
  return teeth;
}

/** The teeth of one arch at each stage in turn, from the seed: what planArchStages writes and planArchTeeth reports. */
function* planArchSequence(arch: Arch, options: PlanOptions) {
  const {
    seed = 1,
    teeth = 14,
    stages = 30,
    trianglesPerTooth = 10_600,
    scale = 1,
    held = [],
    stepScale = 1,
  } = options;
  const random = seededRandom(seed * 2 + (arch === 'upper' ? 1 : 0));
  const { segments, rings } = sphereGridFor(trianglesPerTooth);
  const indices = sphereIndices(segments, rings);
  const placed = Array.from({ length: teeth }, (_, tooth) => placeTooth(arch, tooth, segments, rings, random, scale));
  for (let stage = 0; stage <= stages; stage++) {
    if (stage > 0) {
      // A held tooth draws its step too, so that the other teeth move as they would without it.
      for (const tooth of placed) moveTooth(tooth, random, held.includes(tooth.truth.universal) ? 0 : stepScale);
    }
    yield { placed, indices };
  }
}

/**
 * One binary STL shaped like a scanned dental arch: a closed tube swept along the arch
 * curve, flat-bottomed below, with a crown-like bump per tooth and a few hundredths of a
 * millimetre of noise on every vertex, as a scanner leaves. `triangles` exactly (a closed
 * triangle mesh has an even number).
 */
export function scanStl(triangles: number, seed = 1): Uint8Array {
  if (triangles % 2 !== 0 || triangles < 200)
    throw new Error('a closed scan needs an even number of triangles, 200 or more');
  const random = seededRandom(seed);
  // Quads about square: the tube is some 3.5 times longer than around.
  const around = Math.max(8, Math.round(Math.sqrt(triangles / 7.4)));
  const along = Math.floor(triangles / (2 * around)) - 1;
  const extraPoints = (triangles - 2 * around * (along + 1)) / 2;
  const ringCount = along + 1;
  const positions = new Float64Array((ringCount * around + 2 + extraPoints) * 3);
  const phases = Array.from({ length: 3 }, () => random() * 2 * Math.PI);
  const archLength = 120;
  for (let ring = 0; ring < ringCount; ring++) {
    const s = -archLength / 2 + (archLength * ring) / along;
    const { point, outward } = archFrame(s);
    for (let j = 0; j < around; j++) {
      const angle = (2 * Math.PI * j) / around;
      const [u, v] = [Math.cos(angle), Math.sin(angle)];
      const wave = 1 + 0.04 * Math.sin(s / 3 + 2 * angle + phases[0]!) * Math.sin(s / 7 + phases[1]!);
      const crown = v > 0 ? 2.2 * Math.abs(Math.sin((Math.PI * s) / 8)) ** 0.6 * v ** 1.5 : 0;
      const cusps = v > 0 ? 0.5 * Math.sin((2 * Math.PI * s) / 4 + phases[2]!) * u * u * v : 0;
      const across = 5.5 * u * wave;
      const up = (v > 0 ? 6 * v * wave + crown + cusps : 7 * Math.max(v, -0.8)) + jitter(random);
      const at = (ring * around + j) * 3;
      positions[at] = point[0] + outward[0] * across + jitter(random);
      positions[at + 1] = point[1] + outward[1] * across + jitter(random);
      positions[at + 2] = up;
    }
  }
  const firstCap = ringCount * around;
  for (const [cap, s] of [
    [firstCap, -archLength / 2],
    [firstCap + 1, archLength / 2],
  ] as const) {
    const { point } = archFrame(s);
    positions.set([point[0], point[1], 0], cap * 3);
  }
  const indices = tubeIndices(around, along, firstCap, firstCap + 1);
  // The first cap's fan triangles, one in each block of 2 x along + 2 that tubeIndices writes per j.
  const capTriangles = Array.from({ length: extraPoints }, (_, j) => j * (2 * along + 2));
  return new StlWriter(triangles).addShell(positions, splitTriangles(indices, positions, capTriangles, firstCap + 2))
    .bytes;
}

/** Up to 0.02 mm either way. */
const jitter = (random: () => number) => (random() - 0.5) * 0.04;

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same meshes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- The arch: a catenary y = a (cosh(x / a) - 1) in the occlusal plane, the midline at x = 0:
// round at the front (radius a), opening towards the molars, about 52 mm between the second
// molars' centres.

const archRadius = 11;

/** The arch curve's point at arc length `s` from the midline (negative: the left side), and its buccal normal. */
export function archFrame(s: number, radius = archRadius): { point: Vec3; outward: Vec3 } {
  // A catenary's arc length from its vertex is a sinh(x / a); its slope there, sinh(x / a).
  const slope = s / radius;
  const length = Math.hypot(slope, 1);
  return {
    point: [radius * Math.asinh(slope), radius * (length - 1), 0],
    outward: [slope / length, -1 / length, 0],
  };
}

// ---- Teeth: a UV sphere (poles single vertices, so the shell is closed) shaped into a crown.

export type ToothKind = 'incisor' | 'canine' | 'premolar' | 'molar';

/** From the midline back: central and lateral incisor, canine, two premolars, three molars. */
const kinds: ToothKind[] = ['incisor', 'incisor', 'canine', 'premolar', 'premolar', 'molar', 'molar', 'molar'];
const widths: Record<Arch, number[]> = {
  upper: [8.6, 7.0, 7.9, 7.1, 7.0, 10.4, 9.6, 8.8],
  lower: [7.0, 7.0, 7.4, 7.2, 7.3, 11.0, 10.4, 10.0],
};
/**
 * Buccolingual depth, height, cusps (where on the crown, across -1..1 of width and depth)
 * and how much narrower the tooth is on its lingual side, where the arch is shorter.
 */
const toothShapes: Record<
  ToothKind,
  { depth: number; height: number; cusps: [number, number][]; cuspMm: number; lingualTaper: number }
> = {
  incisor: {
    depth: 6.5,
    height: 10.5,
    cusps: [
      [-0.5, 0],
      [0, 0],
      [0.5, 0],
    ],
    cuspMm: 0.3,
    lingualTaper: 0.4,
  },
  canine: { depth: 7.8, height: 11, cusps: [[0, 0]], cuspMm: 1.2, lingualTaper: 0.35 },
  premolar: {
    depth: 8.5,
    height: 9.8,
    cusps: [
      [0, 0.45],
      [0, -0.45],
    ],
    cuspMm: 0.9,
    lingualTaper: 0.15,
  },
  molar: {
    depth: 10.2,
    height: 9.2,
    cusps: [
      [0.45, 0.45],
      [0.45, -0.45],
      [-0.45, 0.45],
      [-0.45, -0.45],
    ],
    cuspMm: 0.8,
    lingualTaper: 0.1,
  },
};
const gapMm = 0.2;

interface PlacedTooth {
  /** Vertices about the tooth's own centroid, in its own axes (x mesiodistal, y buccal, z to the crown). */
  shape: Float64Array;
  surface: ToothSurface;
  rotation: Matrix3;
  centroid: Vec3;
  truth: Pick<GeneratedTooth, 'universal' | 'mesial' | 'buccal' | 'crown'>;
}

/** A sphere grid of about `triangles` triangles (2 x segments x (rings - 1)), half as many rings as segments. */
export function sphereGridFor(triangles: number) {
  const segments = Math.max(8, 2 * Math.round(Math.sqrt(triangles) / 2));
  return { segments, rings: Math.max(3, Math.round(triangles / (2 * segments)) + 1) };
}

/** Vertex 0 is the crown's pole, then `rings - 1` circles of `segments`, then the root's pole; outward-facing. */
function sphereIndices(segments: number, rings: number): Uint32Array {
  const indices: number[] = [];
  const at = (ring: number, j: number) => 1 + (ring - 1) * segments + (j % segments);
  const lastPole = 1 + (rings - 1) * segments;
  for (let j = 0; j < segments; j++) {
    indices.push(0, at(1, j), at(1, j + 1));
    for (let ring = 1; ring < rings - 1; ring++) {
      indices.push(
        at(ring, j),
        at(ring + 1, j),
        at(ring + 1, j + 1),
        at(ring, j),
        at(ring + 1, j + 1),
        at(ring, j + 1),
      );
    }
    indices.push(lastPole, at(rings - 1, j + 1), at(rings - 1, j));
  }
  return Uint32Array.from(indices);
}

function toothShape(kind: ToothKind, width: number, segments: number, rings: number, random: () => number) {
  const phases = [random(), random()].map((phase) => phase * 2 * Math.PI) as [number, number];
  const { shape } = toothSurface({ kind, width, phases }, segments, rings);
  const centroid = [0, 1, 2].map((axis) => {
    let sum = 0;
    for (let vertex = axis; vertex < shape.length; vertex += 3) sum += shape[vertex]!;
    return sum / (shape.length / 3);
  }) as Vec3;
  for (let i = 0; i < shape.length; i++) shape[i]! -= centroid[i % 3]!;
  return { shape, centroidHeight: centroid[2], surface: { kind, width, phases, centroid } };
}

/** What a tooth's surface is made from: the same numbers give the same surface at any tessellation. */
export interface ToothSurface {
  kind: ToothKind;
  width: number;
  phases: [number, number];
  /** The plan's shell is the surface less this (its vertices' mean), so that its centroid is its origin. */
  centroid?: Vec3;
}

/**
 * The tooth's surface as a sphere grid of `segments` x `rings` (vertex 0 the crown's pole,
 * the last the root's), in its own axes (x mesiodistal, y buccal, z to the crown), less its
 * `centroid` where it has one: another tessellation of the very surface of the plan's shell.
 */
export function toothSurface(
  { kind, width, phases, centroid = [0, 0, 0] }: ToothSurface,
  segments: number,
  rings: number,
): { shape: Float64Array; indices: Uint32Array } {
  const { depth, height, cusps, cuspMm, lingualTaper } = toothShapes[kind];
  const [a, b] = [width / 2, depth / 2];
  const vertexCount = 2 + (rings - 1) * segments;
  const shape = new Float64Array(vertexCount * 3);
  const put = (vertex: number, theta: number, phi: number) => {
    const [ct, st] = [Math.cos(theta), Math.sin(theta)];
    // Squarish in section (a superellipse), bulging at the crown, narrowing towards the root.
    const square = (Math.abs(Math.cos(phi)) ** 3 + Math.abs(Math.sin(phi)) ** 3) ** (-1 / 3);
    const taper = 0.75 + 0.25 * ((1 + ct) / 2);
    const ripple = 1 + 0.015 * Math.sin(3 * phi + phases[0]!) * Math.sin(4 * theta + phases[1]!);
    const radial = square * st ** 0.4 * taper * ripple;
    const [u, v] = [radial * Math.cos(phi), radial * Math.sin(phi)];
    let z = (height / 2) * (1 + Math.sign(ct) * Math.abs(ct) ** 0.7);
    if (ct > 0) {
      const bumps = cusps.reduce((sum, [cu, cv]) => sum + Math.exp(-((u - cu) ** 2 + (v - cv) ** 2) / 0.12), 0);
      z += cuspMm * bumps * Math.sqrt(ct);
    }
    shape.set(
      [a * u * (1 - lingualTaper * Math.max(0, -v)) - centroid[0], b * v - centroid[1], z - centroid[2]],
      vertex * 3,
    );
  };
  put(0, 0, 0);
  for (let ring = 1; ring < rings; ring++) {
    for (let j = 0; j < segments; j++)
      put(1 + (ring - 1) * segments + j, (Math.PI * ring) / rings, (2 * Math.PI * j) / segments);
  }
  put(vertexCount - 1, Math.PI, 0);
  return { shape, indices: sphereIndices(segments, rings) };
}

/** Tooth `tooth` of the arch (even: +x of the midline, the patient's left; odd: the right), in its starting position. */
function placeTooth(
  arch: Arch,
  tooth: number,
  segments: number,
  rings: number,
  random: () => number,
  scale = 1,
): PlacedTooth {
  const fromMidline = Math.floor(tooth / 2);
  const kind = kinds[fromMidline];
  if (!kind) throw new Error(`at most ${2 * kinds.length} teeth in an arch`);
  const archWidths = widths[arch].map((width) => width * scale);
  const width = archWidths[fromMidline]!;
  const s = archWidths.slice(0, fromMidline).reduce((sum, w) => sum + w + gapMm, gapMm / 2) + width / 2;
  const { point, outward } = archFrame(tooth % 2 === 0 ? s : -s, archRadius * scale);
  const { shape, centroidHeight, surface } = toothShape(kind, width, segments, rings, random);
  // Lower crowns point up from z = 0, upper crowns down from z = 23 towards them.
  const crownAxis: Vec3 = arch === 'lower' ? [0, 0, 1] : [0, 0, -1];
  const mesiodistal = cross(outward, crownAxis);
  const base = arch === 'lower' ? 0 : 23;
  const [left, position] = [tooth % 2 === 0, fromMidline + 1];
  const universal = arch === 'upper' ? (left ? 8 + position : 9 - position) : left ? 25 - position : 24 + position;
  // The arch curve's direction at the tooth (away from the midline on the +x side): outward turned a quarter.
  const awayOnPlusX: Vec3 = [-outward[1], outward[0], 0];
  const mesial = awayOnPlusX.map((value) => (left ? -value : value)) as Vec3;
  return {
    truth: { universal, mesial, buccal: outward, crown: crownAxis },
    shape,
    surface,
    // Columns: the tooth's x, y and z axes in the arch.
    rotation: [0, 1, 2].flatMap((row) => [mesiodistal[row]!, outward[row]!, crownAxis[row]!]),
    centroid: [point[0], point[1], base + crownAxis[2] * centroidHeight],
  };
}

/** One stage's step: a translation and a rotation about the centroid, each of random direction and size within the limits. */
function moveTooth(tooth: PlacedTooth, random: () => number, scale: number) {
  const step = randomDirection(random).map((component) => component * planStepLimits.translationMm * scale * random());
  tooth.centroid = tooth.centroid.map((value, axis) => value + step[axis]!) as Vec3;
  const angle = ((planStepLimits.rotationDegrees * scale * Math.PI) / 180) * random();
  tooth.rotation = multiply(axisAngle(randomDirection(random), angle), tooth.rotation);
}

// ---- The scan's tube.

/** Rings 0..along of `around` vertices each, joined into quads, each end closed by a fan to its cap vertex; outward-facing. */
export function tubeIndices(around: number, along: number, firstCap: number, lastCap: number): number[] {
  const indices: number[] = [];
  const at = (ring: number, j: number) => ring * around + (j % around);
  for (let j = 0; j < around; j++) {
    indices.push(firstCap, at(0, j), at(0, j + 1));
    for (let ring = 0; ring < along; ring++) {
      indices.push(at(ring, j), at(ring + 1, j + 1), at(ring, j + 1));
      indices.push(at(ring, j), at(ring + 1, j), at(ring + 1, j + 1));
    }
    indices.push(lastCap, at(along, j + 1), at(along, j));
  }
  return indices;
}

/**
 * Splits each of `triangles` (indices of triangles in `indices`) into three about a new
 * vertex at its centroid, numbered from `firstNew`: two more triangles each, facing the same
 * way, the shell still closed.
 */
function splitTriangles(
  indices: number[],
  positions: Float64Array,
  triangles: number[],
  firstNew: number,
): Uint32Array {
  triangles.forEach((triangle, n) => {
    const [a, b, c] = indices.slice(triangle * 3, triangle * 3 + 3) as [number, number, number];
    const middle = firstNew + n;
    for (let axis = 0; axis < 3; axis++) {
      positions[middle * 3 + axis] =
        (positions[a * 3 + axis]! + positions[b * 3 + axis]! + positions[c * 3 + axis]!) / 3;
    }
    indices[triangle * 3 + 2] = middle;
    indices.push(b, c, middle, c, a, middle);
  });
  return Uint32Array.from(indices);
}
