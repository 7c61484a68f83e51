import type { PlanArch, ToothMovement } from '@portal/contract';
import { EigenvalueDecomposition, Matrix, solve } from 'ml-matrix';
import type { PlanBase } from './plan-view.ts';

/**
 * How far each tooth of a plan arch moves from stage 0 to the last stage, the way an
 * orthodontist reads it (docs/decisions/plans.md § Tooth movements), from the rigid motion of each
 * closed shell that plan-view.ts fitted per stage. Each shell is a tooth; the teeth are
 * numbered by their place on the arch, from their centres at stage 0:
 * - up is the normal of the plane of least spread through the centres (the occlusal plane),
 *   taken towards +z: the lab's software exports both arches in occlusion, the upper above;
 * - along the arch, the teeth are in the order of their angle about the centres' mean
 *   (inside the U), starting after the widest gap: the back of the arch;
 * - forward is square to the line between the two sides' last teeth, away from the back;
 *   the midline is the gap between neighbours that lies furthest forward;
 * - the patient's right is forward x up; from the midline back, a side's teeth are 1
 *   (central incisor) to 8, given as Universal numbers.
 * Each tooth's axes at stage 0: mesial along the arch curve (a polynomial of least squares
 * through the centres) towards the midline, buccal across it away from the arch's inside,
 * and vertical towards the crown (up in the lower arch, down in the upper), so that a
 * positive vertical move is an extrusion.
 */

/**
 * A tooth's movement as stored: whether it is over the limit is decided when it is read,
 * against the limit then; `centres` (x, y, z per stage from 0, to 0.01 mm) place a pinned
 * comment's nearest tooth and are not answered.
 */
export type MeasuredMovement = Omit<ToothMovement, 'overLimit'> & {
  centres: number[];
  /** The most it is away from stage 0 at any stage (the prescription's check); absent in rows measured before. */
  furthestMm?: number;
  furthestDeg?: number;
};

export type ArchMovements = { teeth: MeasuredMovement[] } | { unavailable: string };

type Vec3 = [number, number, number];

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const subtract = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const unit = (a: Vec3) => scale(a, 1 / Math.hypot(...a));
const degrees = (radians: number) => (radians * 180) / Math.PI;

/** The arch curve's polynomial degree: enough for a U-shaped arch's molars, never more than its teeth allow. */
const curveDegree = 6;

export function toothMovements(arch: PlanArch, base: PlanBase, stageMotions: Float64Array[]): ArchMovements {
  const { shells } = base;
  if (shells === 1) {
    return {
      unavailable: 'each stage is one fused shell, and movements are measured when each tooth is a separate shell',
    };
  }
  if (shells > 16) return { unavailable: `the arch has ${shells} separate shells, more than an arch's 16 teeth` };
  const centres = shellCentres(base);
  const shape = archShape(centres);
  const universal = universalNumbers(arch, centres, shape);
  if (typeof universal === 'string') return { unavailable: universal };
  const curve = archCurve(centres, shape);
  const lastMotion = stageMotions.at(-1);
  const teeth = centres.map((centre, shell): MeasuredMovement => {
    const { mesial, buccal, vertical } = toothAxes(arch, centre, shape, curve);
    const placed = [identity, ...stageMotions.map((motions) => motionOf(motions, shell))];
    const centreAt = placed.map(({ translation, rotation }) => add(rotate(rotation, centre), translation));
    let maxStepMm = 0;
    let maxStepDeg = 0;
    let furthestMm = 0;
    let furthestDeg = 0;
    for (let stage = 1; stage < placed.length; stage++) {
      maxStepMm = Math.max(maxStepMm, Math.hypot(...subtract(centreAt[stage]!, centreAt[stage - 1]!)));
      maxStepDeg = Math.max(maxStepDeg, degrees(angleBetween(placed[stage]!.rotation, placed[stage - 1]!.rotation)));
      furthestMm = Math.max(furthestMm, Math.hypot(...subtract(centreAt[stage]!, centre)));
      furthestDeg = Math.max(furthestDeg, degrees(angleBetween(placed[stage]!.rotation, identity.rotation)));
    }
    const moved = subtract(centreAt.at(-1)!, centre);
    // The rotation as a vector (axis times angle, small enough here to split by components).
    const turned = rotationVector(lastMotion ? motionOf(lastMotion, shell).rotation : identity.rotation);
    return {
      tooth: universal[shell]!,
      arch,
      shell,
      translationMm: {
        mesiodistal: round(dot(moved, mesial), 3),
        buccolingual: round(dot(moved, buccal), 3),
        vertical: round(dot(moved, vertical), 3),
        total: round(Math.hypot(...moved), 3),
      },
      // The crown's point moves by turned x vertical: tip moves it mesially, torque buccally; rotation turns the mesial side buccally.
      rotationDeg: {
        tip: round(degrees(dot(turned, cross(vertical, mesial))), 2),
        torque: round(degrees(dot(turned, cross(vertical, buccal))), 2),
        rotation: round(degrees(dot(turned, cross(mesial, buccal))), 2),
      },
      maxStepMm: round(maxStepMm, 3),
      maxStepDeg: round(maxStepDeg, 2),
      furthestMm: round(furthestMm, 3),
      furthestDeg: round(furthestDeg, 2),
      centres: centreAt.flatMap((at) => at.map((value) => round(value, 2))),
    };
  });
  return { teeth: teeth.sort((a, b) => a.tooth - b.tooth) };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits)) + 0;

interface Motion {
  translation: Vec3;
  /** Unit quaternion (x, y, z, w). */
  rotation: [number, number, number, number];
}

const identity: Motion = { translation: [0, 0, 0], rotation: [0, 0, 0, 1] };

const motionOf = (motions: Float64Array, shell: number): Motion => {
  const m = motions.subarray(shell * 7, shell * 7 + 7);
  return { translation: [m[0]!, m[1]!, m[2]!], rotation: [m[3]!, m[4]!, m[5]!, m[6]!] };
};

/** Rotates v by the unit quaternion q = (x, y, z, w). */
function rotate(q: Motion['rotation'], v: Vec3): Vec3 {
  const axis: Vec3 = [q[0], q[1], q[2]];
  const t = scale(cross(axis, v), 2);
  return add(add(v, scale(t, q[3])), cross(axis, t));
}

/** The angle of the rotation from q1 to q2 (radians). */
function angleBetween(q1: Motion['rotation'], q2: Motion['rotation']): number {
  const cosine = Math.abs(q1[0] * q2[0] + q1[1] * q2[1] + q1[2] * q2[2] + q1[3] * q2[3]);
  return 2 * Math.acos(Math.min(1, cosine));
}

function rotationVector(q: Motion['rotation']): Vec3 {
  const sign = q[3] < 0 ? -1 : 1;
  const axis: Vec3 = [q[0] * sign, q[1] * sign, q[2] * sign];
  const sine = Math.hypot(...axis);
  if (sine < 1e-12) return [0, 0, 0];
  return scale(axis, (2 * Math.atan2(sine, q[3] * sign)) / sine);
}

/** Each shell's centre at stage 0: the mean of its vertices, the point plan-view.ts fits its motion about. */
function shellCentres({ positions, shellOf, shells }: Pick<PlanBase, 'positions' | 'shellOf' | 'shells'>): Vec3[] {
  const sums = new Float64Array(shells * 4);
  for (let vertex = 0; vertex < shellOf.length; vertex++) {
    const at = shellOf[vertex]! * 4;
    for (let axis = 0; axis < 3; axis++) sums[at + axis]! += positions[vertex * 3 + axis]!;
    sums[at + 3]!++;
  }
  return Array.from({ length: shells }, (_, shell) => {
    const at = shell * 4;
    return [sums[at]! / sums[at + 3]!, sums[at + 1]! / sums[at + 3]!, sums[at + 2]! / sums[at + 3]!];
  });
}

interface ArchShape {
  mean: Vec3;
  /** The occlusal plane's normal, towards +z. */
  up: Vec3;
  /** In the occlusal plane, from the back of the arch to its front. */
  forward: Vec3;
  /** The shells in their order along the arch, from one side's last tooth to the other's. */
  alongArch: number[];
  /** The midline lies between alongArch[midlineAfter] and the next. */
  midlineAfter: number;
  midline: Vec3;
}

function archShape(centres: Vec3[]): ArchShape {
  const mean = scale(
    centres.reduce((sum, c) => add(sum, c), [0, 0, 0]),
    1 / centres.length,
  );
  // Two teeth leave the plane undefined: the model's own z is then up.
  let up: Vec3 = [0, 0, 1];
  if (centres.length >= 3) {
    const deviations = new Matrix(centres.map((c) => subtract(c, mean)));
    const { realEigenvalues: values, eigenvectorMatrix: vectors } = new EigenvalueDecomposition(
      deviations.transpose().mmul(deviations),
      { assumeSymmetric: true },
    );
    up = unit(vectors.getColumn(values.indexOf(Math.min(...values))) as Vec3);
    if (up[2] < 0) up = scale(up, -1);
  }
  const inPlane = (v: Vec3) => subtract(v, scale(up, dot(v, up)));
  // Any two directions of the plane serve for the angles.
  const first = unit(inPlane(Math.abs(up[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const second = cross(up, first);
  const angles = centres.map((c) => Math.atan2(dot(subtract(c, mean), second), dot(subtract(c, mean), first)));
  const byAngle = centres.map((_, shell) => shell).sort((a, b) => angles[a]! - angles[b]!);
  const gapAfter = (i: number) =>
    i + 1 === byAngle.length
      ? angles[byAngle[0]!]! + 2 * Math.PI - angles[byAngle[i]!]!
      : angles[byAngle[i + 1]!]! - angles[byAngle[i]!]!;
  let back = byAngle.length - 1;
  for (let i = 0; i < byAngle.length; i++) if (gapAfter(i) > gapAfter(back)) back = i;
  const alongArch = [...byAngle.slice(back + 1), ...byAngle.slice(0, back + 1)];
  const middle = (i: number) => scale(add(centres[alongArch[i]!]!, centres[alongArch[i + 1]!]!), 0.5);
  const frontmostGap = (forward: Vec3) => {
    let found = 0;
    for (let i = 1; i + 1 < alongArch.length; i++) if (dot(middle(i), forward) > dot(middle(found), forward)) found = i;
    return found;
  };
  // Forward: square to the line between the teeth at either end, towards the centres' mean;
  // then, as a tooth more on one side (a third molar) tilts that line, square to the line
  // between the last teeth both sides have, until the midline stays.
  const squareTo = (a: number, b: number, towards: Vec3) => {
    const square = unit(cross(up, inPlane(subtract(centres[b]!, centres[a]!))));
    return dot(square, towards) >= 0 ? square : scale(square, -1);
  };
  const ends = scale(add(centres[alongArch[0]!]!, centres[alongArch.at(-1)!]!), 0.5);
  let forward = squareTo(alongArch[0]!, alongArch.at(-1)!, inPlane(subtract(mean, ends)));
  let midlineAfter = frontmostGap(forward);
  for (let round = 0; round < 4 && alongArch.length > 2; round++) {
    const pairs = Math.min(midlineAfter + 1, alongArch.length - midlineAfter - 1);
    forward = squareTo(alongArch[midlineAfter + 1 - pairs]!, alongArch[midlineAfter + pairs]!, forward);
    const next = frontmostGap(forward);
    if (next === midlineAfter) break;
    midlineAfter = next;
  }
  return { mean, up, forward, alongArch, midlineAfter, midline: middle(midlineAfter) };
}

/**
 * Each shell's Universal number, or a message when the teeth cannot be numbered.
 */
function universalNumbers(arch: PlanArch, centres: Vec3[], shape: ArchShape): number[] | string {
  const { alongArch, midlineAfter, forward, up } = shape;
  const right = cross(forward, up);
  const firstIsRight = dot(subtract(centres[alongArch[0]!]!, centres[alongArch.at(-1)!]!), right) > 0;
  const universal: number[] = [];
  for (const [index, shell] of alongArch.entries()) {
    const beforeMidline = index <= midlineAfter;
    const position = beforeMidline ? midlineAfter - index + 1 : index - midlineAfter;
    if (position > 8) return 'the teeth cannot be numbered: more than 8 lie on one side of the midline';
    const isRight = beforeMidline === firstIsRight;
    universal[shell] =
      arch === 'upper' ? (isRight ? 9 - position : 8 + position) : isRight ? 24 + position : 25 - position;
  }
  return universal;
}

/** The arch curve w = f(u) through the centres, u across the arch and w forward: a polynomial of least squares. */
interface ArchCurve {
  across: Vec3;
  /** Coefficients in u / spread, lowest power first. */
  coefficients: number[];
  spread: number;
}

function archCurve(centres: Vec3[], { mean, up, forward }: ArchShape): ArchCurve {
  const across = cross(forward, up);
  const us = centres.map((c) => dot(subtract(c, mean), across));
  const ws = centres.map((c) => dot(subtract(c, mean), forward));
  const spread = Math.max(...us.map(Math.abs)) || 1;
  const degree = Math.min(curveDegree, centres.length - 1);
  const powers = new Matrix(us.map((u) => Array.from({ length: degree + 1 }, (_, power) => (u / spread) ** power)));
  return { across, coefficients: solve(powers, Matrix.columnVector(ws), true).getColumn(0), spread };
}

function toothAxes(arch: PlanArch, centre: Vec3, shape: ArchShape, curve: ArchCurve) {
  const { across, coefficients, spread } = curve;
  const u = dot(subtract(centre, shape.mean), across) / spread;
  const slope =
    coefficients.reduce((sum, c, power) => (power === 0 ? sum : sum + c * power * u ** (power - 1)), 0) / spread;
  const tangent = unit(add(across, scale(shape.forward, slope)));
  const mesial = dot(tangent, subtract(shape.midline, centre)) >= 0 ? tangent : scale(tangent, -1);
  // Across the curve, towards its outside: forward at the midline, the cheek at the molars.
  const buccal = unit(add(scale(across, -slope), shape.forward));
  const vertical = arch === 'lower' ? shape.up : scale(shape.up, -1);
  return { mesial, buccal, vertical };
}

/** Each shell's Universal number and axes at stage 0, as the movement table measures them (progress-fit.ts fits by them). */
export function toothAxesOf(
  arch: PlanArch,
  base: Pick<PlanBase, 'positions' | 'shellOf' | 'shells'>,
): { shell: number; tooth: number; mesial: Vec3; buccal: Vec3; vertical: Vec3 }[] | { unavailable: string } {
  if (base.shells === 1 || base.shells > 16)
    return { unavailable: "the plan's teeth are not each a shell of their own" };
  const centres = shellCentres(base);
  const shape = archShape(centres);
  const universal = universalNumbers(arch, centres, shape);
  if (typeof universal === 'string') return { unavailable: universal };
  const curve = archCurve(centres, shape);
  return centres.map((centre, shell) => ({
    shell,
    tooth: universal[shell]!,
    ...toothAxes(arch, centre, shape, curve),
  }));
}
