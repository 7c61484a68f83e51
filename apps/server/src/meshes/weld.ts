/** An indexed triangle mesh: each vertex once, three indices into it per triangle. */
export interface IndexedMesh {
  positions: Float32Array<ArrayBuffer>;
  indices: Uint32Array<ArrayBuffer>;
}

/**
 * Joins the vertices of a triangle soup (9 floats per triangle) that have the same
 * coordinates, so that each is stored once. STL writes a shared vertex once per triangle
 * it belongs to, with the same floats every time, so an exact match finds them; a tolerance
 * grid would join neighbours on one side of a cell's edge and not on the other. Triangles
 * keep their order: indices 3t..3t+2 are soup triangle t's, so a soup with the same
 * triangles in the same order (a plan's next stage) maps onto the same indices.
 *
 * A hash table finds them, with a fixed hash: a file can be made whose vertices all share
 * one hash, and then each probes past every one before it (13.7 s instead of 0.12 s at
 * 1 MB; docs/decisions/weld-and-fair-queue.md). So the probes have a budget, a few per
 * vertex (real meshes take about one and a half); a soup that spends it is welded by
 * sorting instead, whose work no input changes. Both give the same mesh.
 */
export function weldVertices(soup: Float32Array): IndexedMesh {
  const soupBits = new Uint32Array(soup.buffer, soup.byteOffset, soup.length);
  const soupVertices = soup.length / 3;
  const indices = new Uint32Array(soupVertices);
  // A closed mesh has about half as many vertices as triangles, a sixth of the soup's.
  const unique = new GrowingVertices(Math.max(1024, Math.ceil(soupVertices / 6)));
  let table = new Int32Array(nextPowerOfTwo(unique.capacity * 2)).fill(-1);
  let probesLeft = probesPerVertex * soupVertices;
  for (let vertex = 0; vertex < soupVertices; vertex++) {
    const x = canonical(soupBits[vertex * 3]!);
    const y = canonical(soupBits[vertex * 3 + 1]!);
    const z = canonical(soupBits[vertex * 3 + 2]!);
    const mask = table.length - 1;
    let slot = hashVertex(x, y, z) & mask;
    let found = table[slot]!;
    while (found !== -1 && !unique.isAt(found, x, y, z)) {
      // Rehashing a table costs no more than the probes that filled it, so this bounds both.
      if (--probesLeft < 0) return weldBySorting(soup);
      slot = (slot + 1) & mask;
      found = table[slot]!;
    }
    if (found === -1) {
      found = unique.add(x, y, z);
      table[slot] = found;
      // Kept at most half full, so a miss ends after a few slots.
      if (unique.count * 2 > table.length) table = rehash(unique, table.length * 2);
    }
    indices[vertex] = found;
  }
  return { positions: unique.positions(), indices };
}

/** Probes past another vertex a soup may make, per vertex, before it is sorted instead (tables are at most half full). */
const probesPerVertex = 4;

/**
 * weldVertices by sorting: the soup's vertices ordered by their coordinates' bits, a radix
 * sort, so that equal ones are neighbours; the sort is stable, so each place's first vertex
 * in the soup leads its run, and the places are numbered in the order the soup reaches them.
 */
export function weldBySorting(soup: Float32Array): IndexedMesh {
  const soupBits = new Uint32Array(soup.buffer, soup.byteOffset, soup.length);
  const soupVertices = soup.length / 3;
  const keys = new Uint32Array(soup.length);
  for (let at = 0; at < soup.length; at++) keys[at] = canonical(soupBits[at]!);
  const { sorted, spare: first } = sortByPosition(keys, soupVertices);
  // For each soup vertex, the first soup vertex at its place.
  for (let at = 0; at < soupVertices;) {
    const head = sorted[at]!;
    do first[sorted[at]!] = head;
    while (++at < soupVertices && samePlace(keys, head, sorted[at]!));
  }
  const indices = new Uint32Array(soupVertices);
  const uniqueBits = new Uint32Array(soup.length);
  let count = 0;
  for (let vertex = 0; vertex < soupVertices; vertex++) {
    const earlier = first[vertex]!;
    if (earlier !== vertex) {
      indices[vertex] = indices[earlier]!;
      continue;
    }
    uniqueBits[count * 3] = keys[vertex * 3]!;
    uniqueBits[count * 3 + 1] = keys[vertex * 3 + 1]!;
    uniqueBits[count * 3 + 2] = keys[vertex * 3 + 2]!;
    indices[vertex] = count++;
  }
  return { positions: new Float32Array(uniqueBits.buffer.slice(0, count * 12)), indices };
}

const samePlace = (keys: Uint32Array, a: number, b: number) =>
  keys[a * 3] === keys[b * 3] && keys[a * 3 + 1] === keys[b * 3 + 1] && keys[a * 3 + 2] === keys[b * 3 + 2];

/**
 * The vertices 0..count-1 ordered by their coordinates' bits (`keys`, three a vertex): an
 * LSD radix sort in six passes of 16 bits, each counting and moving every vertex once
 * (a pass whose digit all share is skipped), stable. Answers the order and a spare array.
 */
function sortByPosition(keys: Uint32Array, count: number): { sorted: Uint32Array; spare: Uint32Array } {
  const passes = 6;
  const digits = 1 << 16;
  const starts = new Uint32Array(passes * digits);
  for (let vertex = 0; vertex < count; vertex++) {
    for (let word = 0; word < 3; word++) {
      const bits = keys[vertex * 3 + word]!;
      starts[word * 2 * digits + (bits & 0xffff)]!++;
      starts[(word * 2 + 1) * digits + (bits >>> 16)]!++;
    }
  }
  let sorted = new Uint32Array(count);
  for (let vertex = 0; vertex < count; vertex++) sorted[vertex] = vertex;
  let spare = new Uint32Array(count);
  for (let pass = 0; pass < passes; pass++) {
    const base = pass * digits;
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    let start = 0;
    let allOneDigit = false;
    for (let digit = 0; digit < digits; digit++) {
      const inDigit = starts[base + digit]!;
      if (inDigit === count) allOneDigit = true;
      starts[base + digit] = start;
      start += inDigit;
    }
    if (allOneDigit) continue;
    for (let at = 0; at < count; at++) {
      const vertex = sorted[at]!;
      spare[starts[base + ((keys[vertex * 3 + word]! >>> shift) & 0xffff)]!++] = vertex;
    }
    [sorted, spare] = [spare, sorted];
  }
  return { sorted, spare };
}

/** -0 and 0 are the same place. */
const canonical = (bits: number) => (bits === 0x80000000 ? 0 : bits);

const rotate = (bits: number) => (bits << 16) | (bits >>> 16);

/** Every bit of each coordinate's float moves the low bits the table is indexed by (murmur3's finaliser). */
function hashVertex(x: number, y: number, z: number): number {
  let h = Math.imul(rotate(x), 0x9e3779b1) ^ Math.imul(rotate(y), 0x85ebca77) ^ Math.imul(rotate(z), 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function rehash(unique: GrowingVertices, size: number): Int32Array<ArrayBuffer> {
  const table = new Int32Array(size).fill(-1);
  const mask = size - 1;
  for (let vertex = 0; vertex < unique.count; vertex++) {
    const [x, y, z] = unique.bitsAt(vertex);
    let slot = hashVertex(x, y, z) & mask;
    while (table[slot] !== -1) slot = (slot + 1) & mask;
    table[slot] = vertex;
  }
  return table;
}

const nextPowerOfTwo = (n: number) => 2 ** Math.ceil(Math.log2(n));

/** The welded vertices as float bits, doubling their buffer when it is full. */
class GrowingVertices {
  private bits: Uint32Array<ArrayBuffer>;
  count = 0;

  constructor(capacity: number) {
    this.bits = new Uint32Array(capacity * 3);
  }

  get capacity() {
    return this.bits.length / 3;
  }

  isAt(vertex: number, x: number, y: number, z: number): boolean {
    const { bits } = this;
    return bits[vertex * 3] === x && bits[vertex * 3 + 1] === y && bits[vertex * 3 + 2] === z;
  }

  bitsAt(vertex: number): [number, number, number] {
    const { bits } = this;
    return [bits[vertex * 3]!, bits[vertex * 3 + 1]!, bits[vertex * 3 + 2]!];
  }

  add(x: number, y: number, z: number): number {
    if (this.count === this.capacity) {
      const larger = new Uint32Array(this.bits.length * 2);
      larger.set(this.bits);
      this.bits = larger;
    }
    const { bits } = this;
    bits[this.count * 3] = x;
    bits[this.count * 3 + 1] = y;
    bits[this.count * 3 + 2] = z;
    return this.count++;
  }

  positions(): Float32Array<ArrayBuffer> {
    return new Float32Array(this.bits.buffer.slice(0, this.count * 12));
  }
}

/**
 * The mesh without its triangles of two or three joined corners: they have no area and
 * draw nothing, and meshoptimizer's passes slow down with the square of a vertex's
 * triangles (an STL of one point repeated, 200,000 times over, kept a conversion thread
 * busy for minutes).
 */
export function withoutDegenerateTriangles({ positions, indices }: IndexedMesh): IndexedMesh {
  const kept = new Uint32Array(indices.length);
  let length = 0;
  for (let corner = 0; corner < indices.length; corner += 3) {
    const a = indices[corner]!;
    const b = indices[corner + 1]!;
    const c = indices[corner + 2]!;
    if (a === b || b === c || a === c) continue;
    kept[length++] = a;
    kept[length++] = b;
    kept[length++] = c;
  }
  return { positions, indices: length === indices.length ? indices : kept.slice(0, length) };
}
