import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import type { IndexedMesh } from './weld.ts';

/**
 * How far the overview of a mesh may stray from it (millimetres): below half a pixel when a
 * whole arch fills the viewer (about 0.13 mm a pixel on a 100 mm arch across 800 pixels),
 * and below a scanner's own accuracy.
 */
export const overviewErrorMm = 0.05;

/** The overview keeps at most this share of the triangles (fewer when the error allows no more). */
const overviewShare = 1 / 8;

/**
 * A simplified copy of `mesh` (meshoptimizer's simplifier, within `overviewErrorMm`, on
 * vertices of the mesh), with only the vertices it uses: what the viewer draws while the
 * whole model is in view, where the full mesh's triangles are smaller than a pixel. Drawing
 * is then several times faster, which a browser without a GPU needs (docs/benchmarks.md §
 * Viewer on real-sized meshes); zoomed in, the viewer draws the full mesh.
 */
export async function overviewOf(mesh: IndexedMesh): Promise<IndexedMesh> {
  await MeshoptSimplifier.ready;
  const target = Math.max(3, Math.floor((mesh.indices.length * overviewShare) / 3) * 3);
  const [indices] = MeshoptSimplifier.simplify(mesh.indices, mesh.positions, 3, target, overviewErrorMm, [
    'ErrorAbsolute',
  ]);
  // Renumbers the indices in place to the vertices they use, in order of first use.
  const [remap, vertices] = MeshoptSimplifier.compactMesh(indices);
  const positions = new Float32Array(vertices * 3);
  for (let vertex = 0; vertex < remap.length; vertex++) {
    const to = remap[vertex]!;
    if (to !== 0xffffffff) positions.set(mesh.positions.subarray(vertex * 3, vertex * 3 + 3), to * 3);
  }
  return { positions, indices: indices as Uint32Array<ArrayBuffer> };
}

/** Smooth vertex normals (each the area-weighted sum of its triangles' normals, unit length), as the viewer would compute them. */
export function vertexNormals({ positions, indices }: IndexedMesh): Float32Array<ArrayBuffer> {
  const sums = new Float64Array(positions.length);
  for (let corner = 0; corner < indices.length; corner += 3) {
    const [a, b, c] = [indices[corner]! * 3, indices[corner + 1]! * 3, indices[corner + 2]! * 3];
    const [abx, aby, abz] = [
      positions[b]! - positions[a]!,
      positions[b + 1]! - positions[a + 1]!,
      positions[b + 2]! - positions[a + 2]!,
    ];
    const [acx, acy, acz] = [
      positions[c]! - positions[a]!,
      positions[c + 1]! - positions[a + 1]!,
      positions[c + 2]! - positions[a + 2]!,
    ];
    // The cross product's length is twice the triangle's area: larger triangles weigh more.
    const [nx, ny, nz] = [aby * acz - abz * acy, abz * acx - abx * acz, abx * acy - aby * acx];
    for (const vertex of [a, b, c]) {
      sums[vertex]! += nx;
      sums[vertex + 1]! += ny;
      sums[vertex + 2]! += nz;
    }
  }
  const normals = new Float32Array(positions.length);
  for (let at = 0; at < sums.length; at += 3) {
    const length = Math.hypot(sums[at]!, sums[at + 1]!, sums[at + 2]!) || 1;
    normals[at] = sums[at]! / length;
    normals[at + 1] = sums[at + 1]! / length;
    normals[at + 2] = sums[at + 2]! / length;
  }
  return normals;
}
