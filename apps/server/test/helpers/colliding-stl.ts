/**
 * A binary STL made to be slow to weld with a fixed hash (issue 40): every vertex distinct,
 * and all of them sharing one hash under the finaliser that meshes/weld.ts used to index its
 * table with alone. Made the way an attacker would: that hash is invertible, so for any x and
 * z there is one y that lands on the chosen hash; the y found is kept when it is an ordinary
 * float of a few millimetres' order.
 */

const k1 = 0x9e3779b1;
const k2 = 0x85ebca77;
const k3 = 0xc2b2ae3d;

const rotate = (bits: number) => ((bits << 16) | (bits >>> 16)) >>> 0;

/** weld.ts's vertex hash before the probe budget (the fixed murmur3 finaliser over the three coordinates' bits). */
export function fixedVertexHash(x: number, y: number, z: number): number {
  let h = Math.imul(rotate(x), k1) ^ Math.imul(rotate(y), k2) ^ Math.imul(rotate(z), k3);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The inverse of an odd number modulo 2^32 (Newton's iteration: each step doubles the correct bits). */
function inverseOf(odd: number): number {
  let inverse = odd;
  for (let step = 0; step < 5; step++) inverse = Math.imul(inverse, 2 - Math.imul(odd, inverse));
  return inverse;
}

/** The finaliser is a bijection of its input, so one input before it (here 0x2b) means one hash after it. */
const target = 0x2b;
const k2Inverse = inverseOf(k2);

/** `triangles` triangles of 3 distinct vertices each, all of whose bits hash to one value under fixedVertexHash. */
export function collidingStl(triangles: number, seed = 7): Uint8Array {
  const stl = new Uint8Array(84 + triangles * 50);
  const view = new DataView(stl.buffer);
  view.setUint32(80, triangles, true);
  const float = new Float32Array(1);
  const bits = new Uint32Array(float.buffer);
  const used = new Set<string>();
  let state = seed;
  const nextBits = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  // x and z in [8, 16) mm (exponent 130, mantissa drawn), y solved for.
  // The top bits: an LCG's low bits repeat after 2^23 draws, too few for 10 MB.
  const coordinate = () => ((130 << 23) | (nextBits() >>> 9)) >>> 0;
  for (let triangle = 0; triangle < triangles; triangle++) {
    for (let corner = 0; corner < 3; corner++) {
      for (;;) {
        const x = coordinate();
        const z = coordinate();
        const y = rotate(Math.imul(target ^ Math.imul(rotate(x), k1) ^ Math.imul(rotate(z), k3), k2Inverse));
        bits[0] = y;
        const magnitude = Math.abs(float[0]!);
        if (!(magnitude > 0.01 && magnitude < 1000) || used.has(`${x},${y},${z}`)) continue;
        used.add(`${x},${y},${z}`);
        const at = 84 + triangle * 50 + 12 + corner * 12;
        view.setUint32(at, x, true);
        view.setUint32(at + 4, y, true);
        view.setUint32(at + 8, z, true);
        break;
      }
    }
  }
  return stl;
}
