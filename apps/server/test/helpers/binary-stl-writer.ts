import { cross, type Vec3 } from './rigid-motion.ts';

/** Writes triangles into a binary STL of a known triangle count, with each face's normal. */
export class StlWriter {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  private offset = 84;

  constructor(triangles: number) {
    this.bytes = new Uint8Array(84 + 50 * triangles);
    this.view = new DataView(this.bytes.buffer);
    new TextEncoder().encodeInto('synthetic dental mesh (portal tests)', this.bytes);
    this.view.setUint32(80, triangles, true);
  }

  addShell(positions: Float64Array, indices: Uint32Array): this {
    const { view } = this;
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
      const e1 = [
        positions[b]! - positions[a]!,
        positions[b + 1]! - positions[a + 1]!,
        positions[b + 2]! - positions[a + 2]!,
      ] as Vec3;
      const e2 = [
        positions[c]! - positions[a]!,
        positions[c + 1]! - positions[a + 1]!,
        positions[c + 2]! - positions[a + 2]!,
      ] as Vec3;
      const normal = cross(e1, e2);
      const length = Math.hypot(...normal) || 1;
      let at = this.offset;
      for (const value of normal) {
        view.setFloat32(at, value / length, true);
        at += 4;
      }
      for (const vertex of [a, b, c]) {
        for (let axis = 0; axis < 3; axis++) {
          view.setFloat32(at, positions[vertex + axis]!, true);
          at += 4;
        }
      }
      this.offset += 50;
    }
    return this;
  }
}
