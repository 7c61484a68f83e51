import {
  Matrix4,
  Quaternion,
  Vector3,
  type BufferAttribute,
  type BufferGeometry,
  type InterleavedBufferAttribute,
} from 'three';

/**
 * Where a dental arch's mesh faces, worked out from the mesh itself (docs/decisions/viewer.md
 * § Views that find the arch): files from different software put the arch in different
 * coordinates (+y or +z towards the upper arch, any origin), so the viewers' presets and their
 * framing read the arch, not the file's axes. Pure and on a sample: a 1.5M-triangle scan costs
 * a few milliseconds on the page.
 */

export type ArchName = 'upper' | 'lower';

/** A sample of one mesh, in the coordinates of the model that holds it. */
export interface ArchSample {
  arch?: ArchName;
  /** Corners of the sampled triangles (x, y, z each). */
  points: Float32Array;
  /** Per sampled triangle: its centroid, then its area vector (normal times area) scaled so that their sum estimates the mesh's. */
  triangles: Float32Array;
}

/** The arch's own axes (unit vectors in the model's coordinates) and its centre. */
export interface ArchFrame {
  /** The patient's left. */
  left: Vector3;
  /** Towards the upper arch, square to the occlusal plane. */
  up: Vector3;
  /** Out of the mouth, from the molars towards the incisors. */
  front: Vector3;
  /** False when the mesh shows no arch (too few triangles, no U): the file's own axes are kept then (+y up, +z front). */
  found: boolean;
  /** How `up` was decided: both arches, or for one, the side its crowns are on, and by which sign. */
  upFrom: 'arches' | 'open side' | 'flat base' | 'crown area' | 'file';
}

const fileAxes = (): ArchFrame => ({
  left: new Vector3(1, 0, 0),
  up: new Vector3(0, 1, 0),
  front: new Vector3(0, 0, 1),
  found: false,
  upFrom: 'file',
});

type Readable = Pick<BufferAttribute | InterleavedBufferAttribute, 'count' | 'getX' | 'getY' | 'getZ'>;

/**
 * About `budget` triangles of `geometry` (indexed or not), spread over the whole mesh with a
 * seeded jitter (a stride alone can fall on the same column of a regular grid every time), their
 * corners moved by `matrix` (a viewing copy's quantized positions back to millimetres).
 */
export function sampleMesh(geometry: BufferGeometry, matrix: Matrix4, arch?: ArchName, budget = 3000): ArchSample {
  const position = geometry.getAttribute('position') as Readable | undefined;
  const index = geometry.getIndex();
  const count = position ? Math.floor((index ? index.count : position.count) / 3) : 0;
  const taken = Math.min(count, Math.max(1, Math.round(budget)));
  const points = new Float32Array(taken * 9);
  const triangles = new Float32Array(taken * 6);
  const step = count / Math.max(taken, 1);
  const scale = count / Math.max(taken, 1);
  const corner = [new Vector3(), new Vector3(), new Vector3()] as const;
  const [ab, ac] = [new Vector3(), new Vector3()];
  let seed = 0x2545f491;
  for (let i = 0; i < taken; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const triangle = Math.min(count - 1, Math.floor((i + seed / 2 ** 32) * step));
    for (let k = 0; k < 3; k++) {
      const vertex = index ? index.getX(triangle * 3 + k) : triangle * 3 + k;
      corner[k]!.set(position!.getX(vertex), position!.getY(vertex), position!.getZ(vertex))
        .applyMatrix4(matrix)
        .toArray(points, i * 9 + k * 3);
    }
    const [a, b, c] = corner;
    triangles[i * 6] = (a.x + b.x + c.x) / 3;
    triangles[i * 6 + 1] = (a.y + b.y + c.y) / 3;
    triangles[i * 6 + 2] = (a.z + b.z + c.z) / 3;
    ab.subVectors(b, a)
      .cross(ac.subVectors(c, a))
      .multiplyScalar(scale / 2)
      .toArray(triangles, i * 6 + 3);
  }
  return { arch, points, triangles };
}

/** The eigenvectors of a symmetric 3x3 matrix (Jacobi rotations), largest eigenvalue first. */
function eigenVectors(m: number[][]): { value: number; vector: Vector3 }[] {
  const a = m.map((row) => [...row]);
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 30; sweep++) {
    let off = 0;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      off += Math.abs(a[p]![q]!);
      if (Math.abs(a[p]![q]!) < 1e-12) continue;
      const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const sn = t * c;
      for (let k = 0; k < 3; k++) {
        const [akp, akq] = [a[k]![p]!, a[k]![q]!];
        a[k]![p] = c * akp - sn * akq;
        a[k]![q] = sn * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const [apk, aqk] = [a[p]![k]!, a[q]![k]!];
        a[p]![k] = c * apk - sn * aqk;
        a[q]![k] = sn * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const [vkp, vkq] = [v[k]![p]!, v[k]![q]!];
        v[k]![p] = c * vkp - sn * vkq;
        v[k]![q] = sn * vkp + c * vkq;
      }
    }
    if (off < 1e-12) break;
  }
  return [0, 1, 2]
    .map((k) => ({ value: a[k]![k]!, vector: new Vector3(v[0]![k]!, v[1]![k]!, v[2]![k]!).normalize() }))
    .sort((x, y) => y.value - x.value);
}

/**
 * How well points lie on a U whose axis runs along `us` (across it, `vs`): the parabola
 * u = a v² + b v + k fitted by least squares, its misfit (root mean square) over its depth
 * (lower is a clearer U; a shallow curve, a straight row or a plate, is none), and `a`.
 */
function parabolaScore(us: Float64Array, vs: Float64Array): { score: number; a: number } {
  const n = us.length;
  let [s1, s2, s3, s4, t0, t1, t2, uu, vMin, vMax] = [0, 0, 0, 0, 0, 0, 0, 0, Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    const [u, v] = [us[i]!, vs[i]!];
    const v2 = v * v;
    s1 += v;
    s2 += v2;
    s3 += v2 * v;
    s4 += v2 * v2;
    t0 += u;
    t1 += u * v;
    t2 += u * v2;
    uu += u * u;
    if (v < vMin) vMin = v;
    if (v > vMax) vMax = v;
  }
  const solved = solve3(
    [
      [s4, s3, s2],
      [s3, s2, s1],
      [s2, s1, n],
    ],
    [t2, t1, t0],
  );
  if (!solved) return { score: Infinity, a: 0 };
  const [a, b, k] = solved;
  const misfit = Math.sqrt(Math.max(0, (uu - a * t2 - b * t1 - k * t0) / n));
  const depth = Math.abs(a) * ((vMax - vMin) / 2) ** 2;
  return { score: depth > 0.2 * (vMax - vMin) ? misfit / depth : Infinity, a };
}

/** The U's fit with its axis along `axis` and `across` it (lib: parabolaScore), and the direction towards its apex. */
function fitAxes(points: Vector3[], centre: Vector3, axis: Vector3, across: Vector3) {
  const us = new Float64Array(points.length);
  const vs = new Float64Array(points.length);
  const d = new Vector3();
  points.forEach((point, i) => {
    d.subVectors(point, centre);
    us[i] = d.dot(axis);
    vs[i] = d.dot(across);
  });
  const { score, a } = parabolaScore(us, vs);
  // u grows towards the arms where a > 0: the apex (the front teeth) is the other way.
  return { score, apex: axis.clone().multiplyScalar(a > 0 ? -1 : 1), across: across.clone() };
}

/**
 * How well the points, seen along `normal`, lie on a U: the best direction of the U's axis in
 * the plane (searched every 3 degrees, then to half a degree), its score (parabolaScore), the
 * direction towards its apex (the front teeth; the molars are where it opens) and across it.
 */
function fitU(points: Vector3[], centre: Vector3, normal: Vector3) {
  const e1 = new Vector3(1, 0, 0);
  if (Math.abs(e1.dot(normal)) > 0.9) e1.set(0, 1, 0);
  e1.projectOnPlane(normal).normalize();
  const e2 = normal.clone().cross(e1);
  const at = (degrees: number) => {
    const angle = (degrees * Math.PI) / 180;
    const axis = e1.clone().multiplyScalar(Math.cos(angle)).addScaledVector(e2, Math.sin(angle));
    return { degrees, ...fitAxes(points, centre, axis, normal.clone().cross(axis)) };
  };
  return bestAngle(at, 3, 177);
}

/**
 * The normal tilted about the line across the U (well defined: the arch is symmetric about
 * it) to where the U is clearest: when the arch is about as tall as it is deep (roots), the
 * principal axes mix height and depth, and the least-variance one leans.
 */
function tilted(points: Vector3[], centre: Vector3, normal: Vector3, across: Vector3) {
  const at = (degrees: number) => {
    const tiltedNormal = normal.clone().applyAxisAngle(across, (degrees * Math.PI) / 180);
    return { degrees, normal: tiltedNormal, ...fitAxes(points, centre, across.clone().cross(tiltedNormal), across) };
  };
  return bestAngle(at, -45, 45);
}

/** The lowest-scoring of `at`: 0, then every 3 degrees from `from` to `to`, then by half degrees around the best. */
function bestAngle<Fit extends { degrees: number; score: number }>(at: (degrees: number) => Fit, from: number, to: number) {
  let best = at(0);
  for (let degrees = from; degrees <= to; degrees += 3) {
    const fit = at(degrees);
    if (fit.score < best.score) best = fit;
  }
  for (let delta = -2.5; delta <= 2.5; delta += 0.5) {
    const fit = at(best.degrees + delta);
    if (fit.score < best.score) best = fit;
  }
  return best;
}

/** Solves a 3x3 linear system (Cramer's rule); undefined when it is singular. */
function solve3(m: number[][], r: number[]): [number, number, number] | undefined {
  const det = (q: number[][]) =>
    q[0]![0]! * (q[1]![1]! * q[2]![2]! - q[1]![2]! * q[2]![1]!) -
    q[0]![1]! * (q[1]![0]! * q[2]![2]! - q[1]![2]! * q[2]![0]!) +
    q[0]![2]! * (q[1]![0]! * q[2]![1]! - q[1]![1]! * q[2]![0]!);
  const whole = det(m);
  if (!Number.isFinite(whole) || Math.abs(whole) < 1e-9 * Math.abs(m[0]![0]! * m[1]![1]! * m[2]![2]!)) return undefined;
  const column = (j: number) => det(m.map((row, i) => row.map((value, k) => (k === j ? r[i]! : value))));
  return [column(0) / whole, column(1) / whole, column(2) / whole];
}

/**
 * Which side of the occlusal plane one arch's crowns are on (+1 along `normal`, -1 against it,
 * with the cue that decided), from its triangles, in this order:
 * - an open scan (teeth and gums, no base): its surface's net area vector points to the crowns
 *   (the missing cut at the gums would have faced the other way);
 * - a closed model with a flat base: the side with much more area facing straight out along
 *   the normal is the base;
 * - otherwise (teeth alone, closed shells with their roots): the side with more area facing it
 *   (within 60 degrees) is the crowns' (biting surfaces are broad, roots taper to apices).
 */
function crownSide(triangles: Float32Array, normal: Vector3): { side: number; cue: ArchFrame['upFrom'] } {
  let [net, total, facingPlus, facingMinus, broadPlus, broadMinus] = [0, 0, 0, 0, 0, 0];
  const count = triangles.length / 6;
  for (let i = 0; i < count; i++) {
    const o = i * 6;
    const [ax, ay, az] = [triangles[o + 3]!, triangles[o + 4]!, triangles[o + 5]!];
    const area = Math.hypot(ax, ay, az);
    const along = ax * normal.x + ay * normal.y + az * normal.z;
    net += along;
    total += area;
    if (along > 0.995 * area) facingPlus += area;
    if (along < -0.995 * area) facingMinus += area;
    if (along > 0.5 * area) broadPlus += area;
    if (along < -0.5 * area) broadMinus += area;
  }
  if (total === 0) return { side: 1, cue: 'file' };
  if (Math.abs(net) > 0.05 * total) return { side: Math.sign(net), cue: 'open side' };
  const [flatMore, flatLess] = facingPlus > facingMinus ? [facingPlus, facingMinus] : [facingMinus, facingPlus];
  if (flatMore > 0.05 * total && flatMore > 3 * flatLess)
    return { side: facingPlus > facingMinus ? -1 : 1, cue: 'flat base' };
  return { side: broadPlus >= broadMinus ? 1 : -1, cue: 'crown area' };
}

/**
 * The arch's frame from samples of its meshes (one per arch or scan, each with its arch when
 * known):
 * - the occlusal plane's normal: of the three principal axes of the points, the one along which
 *   they lie most clearly on a U (usually the least-variance one; with roots the arch can be as
 *   tall as it is deep, so the U decides), then tilted about the line across the U to where
 *   the U is clearest (`tilted`);
 * - front: towards the U's apex, where the incisors are;
 * - up: with an upper and a lower arch, from the lower towards the upper; with one, its crowns'
 *   side (crownSide) turned down for an upper arch, up for a lower one or an arch not named;
 * - left: the patient's, up × front.
 * Without a U (fewer than 30 triangles, a straight row, a flat plate) it keeps the file's axes.
 */
export function findArchFrame(samples: ArchSample[]): ArchFrame {
  const all: Vector3[] = [];
  for (const sample of samples) {
    for (let o = 0; o < sample.triangles.length; o += 6)
      all.push(new Vector3(sample.triangles[o], sample.triangles[o + 1], sample.triangles[o + 2]));
  }
  // The U is fitted a few hundred times over: on 2,000 of them at most.
  const stride = Math.max(1, all.length / 2000);
  const centroids = Array.from({ length: Math.min(all.length, 2000) }, (_, i) => all[Math.floor(i * stride)]!);
  if (centroids.length < 30) return fileAxes();
  const centre = centroids.reduce((sum, point) => sum.add(point), new Vector3()).divideScalar(centroids.length);
  const covariance = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const d = new Vector3();
  for (const point of centroids) {
    d.subVectors(point, centre);
    const p = [d.x, d.y, d.z];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) covariance[r]![c]! += p[r]! * p[c]!;
  }
  const axes = eigenVectors(covariance);
  // The least-variance axis is the usual normal: another wins only with a clearly better U.
  const fits = axes.map(({ vector }, k) => ({ normal: vector, ...fitU(centroids, centre, vector), k }));
  for (const fit of fits) if (fit.k !== 2) fit.score /= 0.8;
  const best = fits.reduce((a, b) => (b.score < a.score ? b : a));
  if (!(best.score < 0.4)) return fileAxes();
  const upright = tilted(centroids, centre, best.normal, best.across);
  const normal = upright.normal.clone();
  const front = upright.apex.clone().projectOnPlane(normal).normalize();

  let up: Vector3;
  let upFrom: ArchFrame['upFrom'];
  const centreOf = (arch: ArchName) => {
    const chosen = samples.filter((sample) => sample.arch === arch && sample.triangles.length > 0);
    if (chosen.length === 0) return undefined;
    const sum = new Vector3();
    let n = 0;
    for (const sample of chosen) {
      for (let o = 0; o < sample.triangles.length; o += 6, n++)
        sum.add(d.set(sample.triangles[o]!, sample.triangles[o + 1]!, sample.triangles[o + 2]!));
    }
    return sum.divideScalar(n);
  };
  const [upper, lower] = [centreOf('upper'), centreOf('lower')];
  if (upper && lower && Math.abs(upper.clone().sub(lower).dot(normal)) > 1e-6) {
    up = normal.multiplyScalar(Math.sign(upper.clone().sub(lower).dot(normal)));
    upFrom = 'arches';
  } else {
    const all = new Float32Array(samples.reduce((sum, sample) => sum + sample.triangles.length, 0));
    let offset = 0;
    for (const sample of samples) {
      all.set(sample.triangles, offset);
      offset += sample.triangles.length;
    }
    const { side, cue } = crownSide(all, normal);
    const isUpper = upper !== undefined && lower === undefined;
    up = normal.multiplyScalar(isUpper ? -side : side);
    upFrom = cue;
  }
  const left = up.clone().cross(front).normalize();
  return { left, up, front, found: true, upFrom };
}

/** The model's turn that puts the arch's left, up and front on the viewer's x, y and z (the frame the presets are written in). */
export function archTurn(frame: Pick<ArchFrame, 'left' | 'up' | 'front'>): Quaternion {
  return new Quaternion().setFromRotationMatrix(new Matrix4().makeBasis(frame.left, frame.up, frame.front).transpose());
}

/** Every point of the samples, one array (x, y, z each). */
export function pointsOf(samples: ArchSample[]): Float32Array {
  const all = new Float32Array(samples.reduce((sum, sample) => sum + sample.points.length, 0));
  let offset = 0;
  for (const sample of samples) {
    all.set(sample.points, offset);
    offset += sample.points.length;
  }
  return all;
}

/** How a perspective camera frames points: for an aspect ratio, the point it looks at and how far back it stands. */
export interface Framing {
  /** The radius of a sphere about the points' middle holding every point: the camera's near and far planes follow it. */
  radius: number;
  /** The target is in the coordinates the points were turned into (the camera's world). */
  at: (aspect: number) => { target: Vector3; distance: number };
}

/**
 * Frames `points` (model coordinates, turned by `turn`) for a camera looking from
 * `viewDirection` (world up +y, as OrbitControls keeps it) with a vertical field of view of
 * `fieldOfViewDegrees`: the least distance at which every point is within `fill` of the view's
 * half-width and half-height, the target moved across the view until the picture is centred
 * (perspective makes the nearer side larger), so the teeth fill the view at any aspect.
 */
export function framePoints(
  points: Float32Array,
  turn: Quaternion,
  viewDirection: Vector3,
  fieldOfViewDegrees: number,
  fill = 0.9,
): Framing {
  const z = viewDirection.clone().normalize();
  const x = new Vector3(0, 1, 0).cross(z).normalize();
  const y = z.clone().cross(x);
  const count = points.length / 3;
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  const zs = new Float64Array(count);
  const p = new Vector3();
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    p.fromArray(points, i * 3).applyQuaternion(turn);
    const c = [p.dot(x), p.dot(y), p.dot(z)];
    [xs[i], ys[i], zs[i]] = [c[0]!, c[1]!, c[2]!];
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, c[k]!);
      max[k] = Math.max(max[k]!, c[k]!);
    }
  }
  const mid = min.map((low, k) => (low + max[k]!) / 2);
  let radius = 1e-3;
  for (let i = 0; i < count; i++)
    radius = Math.max(radius, Math.hypot(xs[i]! - mid[0]!, ys[i]! - mid[1]!, zs[i]! - mid[2]!));
  const tanVertical = Math.tan((fieldOfViewDegrees * Math.PI) / 360);
  const cz = mid[2]!;
  return {
    radius,
    at(aspect: number) {
      const [tanAcross, across, upward] = [tanVertical * aspect, tanVertical * aspect * fill, tanVertical * fill];
      let [cx, cy] = [mid[0]!, mid[1]!];
      const distanceFor = () => {
        let distance = radius / 100;
        for (let i = 0; i < count; i++) {
          // A point nearer the camera (zs above the middle) needs the camera further back.
          const nearer = zs[i]! - cz;
          distance = Math.max(
            distance,
            nearer + Math.abs(xs[i]! - cx) / across,
            nearer + Math.abs(ys[i]! - cy) / upward,
          );
        }
        return distance;
      };
      for (let round = 0; round < 4; round++) {
        const distance = distanceFor();
        const bounds = [Infinity, -Infinity, Infinity, -Infinity];
        for (let i = 0; i < count; i++) {
          const depth = distance - (zs[i]! - cz);
          const [u, v] = [(xs[i]! - cx) / (depth * tanAcross), (ys[i]! - cy) / (depth * tanVertical)];
          bounds[0] = Math.min(bounds[0]!, u);
          bounds[1] = Math.max(bounds[1]!, u);
          bounds[2] = Math.min(bounds[2]!, v);
          bounds[3] = Math.max(bounds[3]!, v);
        }
        cx += ((bounds[0]! + bounds[1]!) / 2) * distance * tanAcross;
        cy += ((bounds[2]! + bounds[3]!) / 2) * distance * tanVertical;
      }
      const target = x.clone().multiplyScalar(cx).addScaledVector(y, cy).addScaledVector(z, cz);
      return { target, distance: distanceFor() };
    },
  };
}
