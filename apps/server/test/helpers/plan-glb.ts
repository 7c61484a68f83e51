import { NodeIO, type Node } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { readStl } from '../../src/meshes/stl.ts';

const decoderIo = new NodeIO()
  .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });

type Matrix = number[];

/** Column-major 4x4 product a * b. */
function multiply(a: Matrix, b: Matrix): Matrix {
  const out = new Array<number>(16).fill(0);
  for (let column = 0; column < 4; column++)
    for (let row = 0; row < 4; row++)
      for (let k = 0; k < 4; k++) out[column * 4 + row]! += a[k * 4 + row]! * b[column * 4 + k]!;
  return out;
}

/** The column-major matrix of a translation and a rotation (x, y, z, w). */
function fromTranslationRotation([tx, ty, tz]: number[], [x, y, z, w]: number[]): Matrix {
  const [xx, yy, zz, xy, xz, yz, wx, wy, wz] = [
    x! * x!,
    y! * y!,
    z! * z!,
    x! * y!,
    x! * z!,
    y! * z!,
    w! * x!,
    w! * y!,
    w! * z!,
  ];
  return [
    1 - 2 * (yy + zz),
    2 * (xy + wz),
    2 * (xz - wy),
    0,
    2 * (xy - wz),
    1 - 2 * (xx + zz),
    2 * (yz + wx),
    0,
    2 * (xz + wy),
    2 * (yz - wx),
    1 - 2 * (xx + yy),
    0,
    tx!,
    ty!,
    tz!,
    1,
  ];
}

export interface DecodedPlanArch {
  /** Stages after stage 0, as keyframes of the "stages" animation. */
  stages: number;
  shells: number;
  triangles: number;
  /** The largest quantization step of a shell's positions, in millimetres. */
  step: number;
  /** The triangles of the shells' overviews (simplified within 0.05 mm: what the viewer draws while the whole arch is in view). */
  overviewTriangles: number;
  /** Every vertex of every shell where stage `stage` puts it, in millimetres. */
  positionsAt(stage: number): Float64Array;
  /** The same for the overviews' vertices. */
  overviewPositionsAt(stage: number): Float64Array;
}

/** A plan arch's GLB (meshes/plan-view.ts) read back as the viewer reads it. */
export async function decodePlanGlb(glb: Uint8Array): Promise<DecodedPlanArch> {
  await MeshoptDecoder.ready;
  const document = await decoderIo.readBinary(glb);
  const root = document.getRoot();
  const [animation] = root.listAnimations();
  if (animation?.getName() !== 'stages') throw new Error('no "stages" animation');
  const moved = root.listNodes().filter((node) => /^shell-\d+$/.test(node.getName()));
  const keyframes = (node: Node, path: 'translation' | 'rotation') => {
    const channel = animation.listChannels().find((c) => c.getTargetNode() === node && c.getTargetPath() === path)!;
    const sampler = channel.getSampler()!;
    if (sampler.getInterpolation() !== 'STEP') throw new Error('stages are not STEP keyframes');
    return sampler.getOutput()!;
  };
  const input = animation.listSamplers()[0]!.getInput()!;
  let step = 0;
  let triangles = 0;
  let overviewTriangles = 0;
  const shells = moved.map((node) => {
    const part = (name: 'detail' | 'overview') => {
      const holder = node.listChildren().find((child) => child.getName() === `${node.getName()}-${name}`)!;
      const primitive = holder.getMesh()!.listPrimitives()[0]!;
      step = Math.max(step, Math.max(...holder.getScale()) / (2 ** 13 - 1));
      return {
        attribute: primitive.getAttribute('POSITION')!,
        triangles: primitive.getIndices()!.getCount() / 3,
        local: holder.getMatrix(),
      };
    };
    const [detail, overview] = [part('detail'), part('overview')];
    triangles += detail.triangles;
    overviewTriangles += overview.triangles;
    return { detail, overview, translation: keyframes(node, 'translation'), rotation: keyframes(node, 'rotation') };
  });
  const positionsAt = (stage: number, which: 'detail' | 'overview') => {
    const count = shells.reduce((sum, shell) => sum + shell[which].attribute.getCount(), 0);
    const out = new Float64Array(count * 3);
    let at = 0;
    for (const shell of shells) {
      const motion = fromTranslationRotation(
        shell.translation.getElement(stage, []),
        shell.rotation.getElement(stage, []),
      );
      const { attribute, local } = shell[which];
      const m = multiply(motion, local);
      const element: number[] = [];
      for (let vertex = 0; vertex < attribute.getCount(); vertex++) {
        const [x, y, z] = attribute.getElement(vertex, element) as [number, number, number];
        for (let axis = 0; axis < 3; axis++)
          out[at++] = m[axis]! * x + m[4 + axis]! * y + m[8 + axis]! * z + m[12 + axis]!;
      }
    }
    return out;
  };
  return {
    stages: input.getCount() - 1,
    shells: shells.length,
    triangles,
    overviewTriangles,
    step,
    positionsAt: (stage) => positionsAt(stage, 'detail'),
    overviewPositionsAt: (stage) => positionsAt(stage, 'overview'),
  };
}

/**
 * How far the farthest of `positions` lies from the nearest vertex of the STL, and how far
 * the farthest STL vertex lies from the nearest of `positions` (millimetres; each within
 * `reach`, Infinity past it): both small means the same surface.
 */
export function distancesToStl(positions: Float64Array, stl: Uint8Array, reach: number) {
  const soup = readStl(stl).positions;
  const cell = (value: number) => Math.floor(value / reach);
  const gridOf = (points: ArrayLike<number>) => {
    const grid = new Map<string, number[]>();
    for (let i = 0; i < points.length; i += 3) {
      const key = `${cell(points[i]!)},${cell(points[i + 1]!)},${cell(points[i + 2]!)}`;
      const list = grid.get(key);
      if (list) list.push(i);
      else grid.set(key, [i]);
    }
    return grid;
  };
  const farthest = (from: ArrayLike<number>, to: ArrayLike<number>) => {
    const grid = gridOf(to);
    let worst = 0;
    for (let i = 0; i < from.length; i += 3) {
      let nearest = Infinity;
      const [cx, cy, cz] = [cell(from[i]!), cell(from[i + 1]!), cell(from[i + 2]!)];
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (let dz = -1; dz <= 1; dz++)
            for (const j of grid.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
              nearest = Math.min(
                nearest,
                Math.hypot(from[i]! - to[j]!, from[i + 1]! - to[j + 1]!, from[i + 2]! - to[j + 2]!),
              );
            }
      worst = Math.max(worst, nearest);
    }
    return worst;
  };
  return { glbToStl: farthest(positions, soup), stlToGlb: farthest(soup, positions) };
}
