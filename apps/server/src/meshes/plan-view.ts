import type { ServerMessageCode, ServerMessageParams } from '@portal/contract';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { coded } from '../lib/errors.ts';
import { compress, io, meshOf, newDocument } from './derivative.ts';
import { overviewOf } from './overview.ts';
import { readStl } from './stl.ts';
import { weldVertices } from './weld.ts';

/**
 * One arch of a treatment plan as the viewer loads it
 * (docs/decisions/meshes.md § Meshes for viewing): the stages of a plan are the same teeth moved,
 * so instead of a mesh per stage it is stage 0's mesh, split into its closed shells (one per tooth), and per stage one
 * rigid motion per shell. The GLB holds a node per shell and an animation named "stages"
 * whose keyframe k (STEP, at time k) is the shells' place at stage k.
 */

/** Stage 0 welded, with what reading a later stage and fitting its motions needs. */
export interface PlanBase {
  positions: Float32Array<ArrayBuffer>;
  indices: Uint32Array<ArrayBuffer>;
  /** For each welded vertex, the first STL corner (triangle * 3 + corner) that is it: where a later stage has it. */
  firstCorner: Uint32Array<ArrayBuffer>;
  /** For each welded vertex, its shell (0 to shells - 1, in the order the STL first reaches them). */
  shellOf: Uint32Array<ArrayBuffer>;
  shells: number;
  triangles: number;
}

/** A stage's shells placed: per shell translation (x, y, z) then rotation quaternion (x, y, z, w), moving stage 0 onto the stage. */
export interface StageMotion {
  motions: Float64Array<ArrayBuffer>;
  /** The farthest a vertex of the stage lies from where its shell's motion puts it, in millimetres. */
  largestMiss: number;
}

/**
 * A vertex may lie this far from where its shell's rigid motion puts it (millimetres): float
 * rounding in the lab's export is a thousand times less, a tooth that changed shape (not
 * moved) is far more. Below the 14-bit quantization's step on a whole arch.
 */
export const rigidToleranceMm = 0.005;

/** Why the stages are not one set of shells moved: a refusal by its code ("the stages are not the same shells moved: …"). */
const notOnePlan = (code: Extract<ServerMessageCode, `plan${string}`>, params: ServerMessageParams) =>
  coded(400, code, params);

export function planBase(stl: Uint8Array): PlanBase {
  const { positions: soup, triangles } = readStl(stl);
  const { positions, indices } = weldVertices(soup);
  const vertices = positions.length / 3;
  const firstCorner = new Uint32Array(vertices).fill(0xffffffff);
  for (let corner = indices.length - 1; corner >= 0; corner--) firstCorner[indices[corner]!] = corner;
  const { shellOf, shells } = shellsOf(indices, vertices);
  return { positions, indices, firstCorner, shellOf, shells, triangles };
}

/** Connected components of the triangles' vertices (union-find with path halving), numbered in order of first vertex. */
function shellsOf(indices: Uint32Array, vertices: number) {
  const parent = new Uint32Array(vertices).map((_, vertex) => vertex);
  const root = (vertex: number) => {
    while (parent[vertex] !== vertex) vertex = parent[vertex] = parent[parent[vertex]!]!;
    return vertex;
  };
  for (let corner = 0; corner < indices.length; corner += 3) {
    const a = root(indices[corner]!);
    for (const other of [indices[corner + 1]!, indices[corner + 2]!]) {
      const b = root(other);
      if (a !== b) parent[b] = a;
    }
  }
  const label = new Int32Array(vertices).fill(-1);
  const shellOf = new Uint32Array(vertices);
  let shells = 0;
  for (let vertex = 0; vertex < vertices; vertex++) {
    const top = root(vertex);
    if (label[top] === -1) label[top] = shells++;
    shellOf[vertex] = label[top]!;
  }
  return { shellOf, shells };
}

/**
 * Where stage `stl` puts each shell of `base`: refused (400, "the stages are not the same shells moved: …") when it
 * has other triangles, splits a vertex stage 0 shares, or bends a shell rather than moving
 * it. The motion is the least-squares rigid fit (Horn's quaternion method) of the shell's
 * stage-0 vertices onto the stage's.
 */
export function planStageMotion(stl: Uint8Array, base: PlanBase): StageMotion {
  const { positions: soup, triangles } = readStl(stl);
  if (triangles !== base.triangles)
    throw notOnePlan('planStageTriangles', { triangles, stageZeroTriangles: base.triangles });
  const { indices, firstCorner, shellOf, shells } = base;
  const vertices = firstCorner.length;
  const moved = new Float64Array(vertices * 3);
  for (let vertex = 0; vertex < vertices; vertex++) {
    const at = firstCorner[vertex]! * 3;
    moved[vertex * 3] = soup[at]!;
    moved[vertex * 3 + 1] = soup[at + 1]!;
    moved[vertex * 3 + 2] = soup[at + 2]!;
  }
  for (let corner = 0; corner < indices.length; corner++) {
    const vertex = indices[corner]!;
    for (let axis = 0; axis < 3; axis++) {
      if (soup[corner * 3 + axis] !== moved[vertex * 3 + axis]) {
        throw notOnePlan('planStageNotJoined', { triangle: Math.floor(corner / 3) + 1 });
      }
    }
  }
  const from = base.positions;
  const motions = new Float64Array(shells * 7);
  // Per shell: vertex count, both centroids, then the cross-covariance of the centred points.
  const count = new Float64Array(shells);
  const centroids = new Float64Array(shells * 6);
  for (let vertex = 0; vertex < vertices; vertex++) {
    const shell = shellOf[vertex]!;
    count[shell]!++;
    for (let axis = 0; axis < 3; axis++) {
      centroids[shell * 6 + axis]! += from[vertex * 3 + axis]!;
      centroids[shell * 6 + 3 + axis]! += moved[vertex * 3 + axis]!;
    }
  }
  for (let shell = 0; shell < shells; shell++) {
    for (let i = 0; i < 6; i++) centroids[shell * 6 + i]! /= count[shell]!;
  }
  const covariance = new Float64Array(shells * 9);
  for (let vertex = 0; vertex < vertices; vertex++) {
    const shell = shellOf[vertex]!;
    for (let row = 0; row < 3; row++) {
      const p = from[vertex * 3 + row]! - centroids[shell * 6 + row]!;
      for (let column = 0; column < 3; column++) {
        covariance[shell * 9 + row * 3 + column]! +=
          p * (moved[vertex * 3 + column]! - centroids[shell * 6 + 3 + column]!);
      }
    }
  }
  for (let shell = 0; shell < shells; shell++) {
    const q = bestRotation(covariance.subarray(shell * 9, shell * 9 + 9));
    const c0 = centroids.subarray(shell * 6, shell * 6 + 3);
    const c1 = centroids.subarray(shell * 6 + 3, shell * 6 + 6);
    const rotated = rotate(q, c0[0]!, c0[1]!, c0[2]!);
    motions.set([c1[0]! - rotated[0], c1[1]! - rotated[1], c1[2]! - rotated[2], ...q], shell * 7);
  }
  let largestMiss = 0;
  for (let vertex = 0; vertex < vertices; vertex++) {
    const m = motions.subarray(shellOf[vertex]! * 7, shellOf[vertex]! * 7 + 7);
    const placed = rotate(m.subarray(3, 7), from[vertex * 3]!, from[vertex * 3 + 1]!, from[vertex * 3 + 2]!);
    const miss = Math.hypot(
      placed[0] + m[0]! - moved[vertex * 3]!,
      placed[1] + m[1]! - moved[vertex * 3 + 1]!,
      placed[2] + m[2]! - moved[vertex * 3 + 2]!,
    );
    if (miss > largestMiss) largestMiss = miss;
  }
  if (largestMiss > rigidToleranceMm) {
    throw notOnePlan('planShellChangesShape', { offMm: largestMiss.toFixed(3) });
  }
  return { motions, largestMiss };
}

/**
 * The rotation (x, y, z, w) that best turns the centred points of one set onto the other's,
 * from their cross-covariance `s` (row-major, s[3i+j] = sum p_i q_j): the eigenvector of
 * Horn's symmetric 4x4 matrix with the largest eigenvalue.
 */
function bestRotation(s: Float64Array): [number, number, number, number] {
  const [xx, xy, xz, yx, yy, yz, zx, zy, zz] = s as unknown as number[];
  const n = new Matrix([
    [xx! + yy! + zz!, yz! - zy!, zx! - xz!, xy! - yx!],
    [yz! - zy!, xx! - yy! - zz!, xy! + yx!, zx! + xz!],
    [zx! - xz!, xy! + yx!, -xx! + yy! - zz!, yz! + zy!],
    [xy! - yx!, zx! + xz!, yz! + zy!, -xx! - yy! + zz!],
  ]);
  const decomposition = new EigenvalueDecomposition(n, { assumeSymmetric: true });
  const values = decomposition.realEigenvalues;
  const largest = values.indexOf(Math.max(...values));
  const [w, x, y, z] = decomposition.eigenvectorMatrix.getColumn(largest);
  const length = Math.hypot(w!, x!, y!, z!);
  // q and -q are the same rotation: keep w >= 0 so that keyframes do not flip sign.
  const sign = w! < 0 ? -1 / length : 1 / length;
  return [x! * sign, y! * sign, z! * sign, w! * sign];
}

/** Rotates (x, y, z) by the unit quaternion q = (x, y, z, w). */
function rotate(q: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  const [qx, qy, qz, qw] = [q[0]!, q[1]!, q[2]!, q[3]!];
  // t = 2 (q.xyz x v); v' = v + w t + q.xyz x t
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

export interface PlanView {
  glb: Uint8Array;
  shells: number;
  /** Stages after stage 0. */
  stages: number;
  triangles: number;
}

/**
 * The GLB of one arch: per shell a node named `shell-<n>` (moved by the animation) holding
 * two nodes with its mesh (each given its own scale and offset by quantization):
 * `shell-<n>-detail`, every triangle, and `shell-<n>-overview`, simplified within 0.05 mm
 * (overview.ts), which the viewer draws while the whole arch is in view, and for the ghost.
 * The animation "stages" has a STEP keyframe per stage, `stageMotions[k]` at time k + 1
 * (stage 0 is where the meshes already are).
 */
export async function makePlanView(base: PlanBase, stageMotions: Float64Array[]): Promise<PlanView> {
  const document = newDocument();
  const buffer = document.getRoot().listBuffers()[0]!;
  const scene = document.createScene();
  const stages = stageMotions.length;
  const times = document
    .createAccessor()
    .setType('SCALAR')
    .setArray(Float32Array.from({ length: stages + 1 }, (_, stage) => stage))
    .setBuffer(buffer);
  const animation = document.createAnimation('stages');
  for (const [shell, detail] of splitShells(base).entries()) {
    const overview = await overviewOf(detail);
    const moved = document
      .createNode(`shell-${shell}`)
      .addChild(document.createNode(`shell-${shell}-detail`).setMesh(meshOf(document, detail)))
      .addChild(document.createNode(`shell-${shell}-overview`).setMesh(meshOf(document, overview)));
    scene.addChild(moved);
    const translations = new Float32Array((stages + 1) * 3);
    const rotations = new Float32Array((stages + 1) * 4);
    rotations[3] = 1;
    for (const [stage, motions] of stageMotions.entries()) {
      translations.set(motions.subarray(shell * 7, shell * 7 + 3), (stage + 1) * 3);
      rotations.set(motions.subarray(shell * 7 + 3, shell * 7 + 7), (stage + 1) * 4);
    }
    for (const [path, values, type] of [
      ['translation', translations, 'VEC3'],
      ['rotation', rotations, 'VEC4'],
    ] as const) {
      const sampler = document
        .createAnimationSampler()
        .setInput(times)
        .setOutput(document.createAccessor().setType(type).setArray(values).setBuffer(buffer))
        .setInterpolation('STEP');
      animation
        .addSampler(sampler)
        .addChannel(document.createAnimationChannel().setTargetNode(moved).setTargetPath(path).setSampler(sampler));
    }
  }
  await compress(document);
  return { glb: await io.writeBinary(document), shells: base.shells, stages, triangles: base.triangles };
}

/** Each shell's vertices and triangles as a mesh of its own, indices renumbered. */
function splitShells({ positions, indices, shellOf, shells }: PlanBase) {
  const vertexCount = new Uint32Array(shells);
  const local = new Uint32Array(shellOf.length);
  for (let vertex = 0; vertex < shellOf.length; vertex++) local[vertex] = vertexCount[shellOf[vertex]!]!++;
  const triangleCount = new Uint32Array(shells);
  for (let corner = 0; corner < indices.length; corner += 3) triangleCount[shellOf[indices[corner]!]!]!++;
  const meshes = Array.from({ length: shells }, (_, shell) => ({
    positions: new Float32Array(vertexCount[shell]! * 3),
    indices: new Uint32Array(triangleCount[shell]! * 3),
    filled: 0,
  }));
  for (let vertex = 0; vertex < shellOf.length; vertex++) {
    meshes[shellOf[vertex]!]!.positions.set(positions.subarray(vertex * 3, vertex * 3 + 3), local[vertex]! * 3);
  }
  for (let corner = 0; corner < indices.length; corner++) {
    const mesh = meshes[shellOf[indices[corner]!]!]!;
    mesh.indices[mesh.filled++] = local[indices[corner]!]!;
  }
  return meshes;
}
