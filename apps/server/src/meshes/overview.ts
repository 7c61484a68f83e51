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

/** A per-vertex value the overview must keep meaningful, and how much it weighs against the shape (mm of error per unit). */
export interface OverviewAttribute {
  values: Float32Array;
  weight: number;
}

/**
 * A simplified copy of `mesh` (meshoptimizer's simplifier, within `overviewErrorMm`, on
 * vertices of the mesh), with only the vertices it uses: what the viewer draws while the
 * whole model is in view, where the full mesh's triangles are smaller than a pixel. Drawing
 * is then several times faster, which a browser without a GPU needs (docs/benchmarks.md §
 * Viewer on real-sized meshes); zoomed in, the viewer draws the full mesh.
 *
 * With `attribute` (a progress scan's distances), its interpolation error counts as the
 * shape's does (`weight` mm a unit), so an edge is not collapsed where the values change
 * across it; the overview's vertices are vertices of the mesh, so each kept vertex carries
 * its own value, exactly (`values`).
 */
export async function overviewOf(mesh: IndexedMesh): Promise<IndexedMesh>;
export async function overviewOf(
  mesh: IndexedMesh,
  attribute: OverviewAttribute,
): Promise<IndexedMesh & { values: Float32Array<ArrayBuffer> }>;
export async function overviewOf(
  mesh: IndexedMesh,
  attribute?: OverviewAttribute,
): Promise<IndexedMesh & { values?: Float32Array<ArrayBuffer> }> {
  await MeshoptSimplifier.ready;
  const target = Math.max(3, Math.floor((mesh.indices.length * overviewShare) / 3) * 3);
  const [indices] = attribute
    ? MeshoptSimplifier.simplifyWithAttributes(
        mesh.indices,
        mesh.positions,
        3,
        attribute.values,
        1,
        [attribute.weight],
        null,
        target,
        overviewErrorMm,
        ['ErrorAbsolute'],
      )
    : MeshoptSimplifier.simplify(mesh.indices, mesh.positions, 3, target, overviewErrorMm, ['ErrorAbsolute']);
  // Renumbers the indices in place to the vertices they use, in order of first use.
  const [remap, vertices] = MeshoptSimplifier.compactMesh(indices);
  const positions = new Float32Array(vertices * 3);
  const values = attribute && new Float32Array(vertices);
  for (let vertex = 0; vertex < remap.length; vertex++) {
    const to = remap[vertex]!;
    if (to === 0xffffffff) continue;
    positions.set(mesh.positions.subarray(vertex * 3, vertex * 3 + 3), to * 3);
    if (values) values[to] = attribute.values[vertex]!;
  }
  return { positions, indices: indices as Uint32Array<ArrayBuffer>, ...(values && { values }) };
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
