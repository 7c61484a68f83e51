import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { valueSymbol } from 'piscina';
import { describe, expect, it } from 'vitest';
import { compiledServer } from '../../../e2e/helpers/portal-process.ts';
import { serverDist } from '../build.ts';
import { makeViewingDerivative, type ViewingDerivative } from '../src/meshes/derivative.ts';
import { createDerivativePool } from '../src/meshes/derivative-pool.ts';
import { planBase, planStageMotion, rigidToleranceMm, type PlanBase } from '../src/meshes/plan-view.ts';
import { readStl } from '../src/meshes/stl.ts';
import { weldVertices, type IndexedMesh } from '../src/meshes/weld.ts';
import { planArchStages, planStepLimits, scanStl } from './helpers/dental-meshes.ts';

/** The same triangles as ASCII STL, `solids` solids of them, with the untidy whitespace exporters write. */
function asciiStlOf(binary: Uint8Array, solids = 1): Buffer {
  const { positions, triangles } = readStl(binary);
  const lines: string[] = [];
  for (let triangle = 0; triangle < triangles; triangle++) {
    if (triangle % Math.ceil(triangles / solids) === 0) {
      if (triangle > 0) lines.push('endsolid part');
      lines.push(`solid part ${triangle}`);
    }
    lines.push('  facet normal 0 0 0', '\touter loop');
    for (let vertex = 0; vertex < 3; vertex++) {
      const at = triangle * 9 + vertex * 3;
      lines.push(`      vertex ${positions[at]} ${positions[at + 1]!.toExponential()} ${positions[at + 2]}`);
    }
    lines.push('    endloop', '  endfacet');
  }
  lines.push('endsolid part');
  return Buffer.from(lines.join('\r\n'));
}

const binaryWithHeader = (header: string, stl: Uint8Array) => {
  const copy = Buffer.from(stl);
  copy.fill(0, 0, 80).write(header, 0, 'latin1');
  return copy;
};

describe('readStl', () => {
  const scan = scanStl(2_000);

  it('reads a binary STL by its size, also when its header starts with "solid"', () => {
    const read = readStl(binaryWithHeader('solid exported by a scanner', scan));
    expect(read.triangles).toBe(2_000);
    expect(read.positions).toHaveLength(2_000 * 9);
    const record = new DataView(scan.buffer, 84 + 12, 12);
    expect(Array.from(read.positions.subarray(0, 3))).toEqual([0, 4, 8].map((at) => record.getFloat32(at, true)));
  });

  it('reads an ASCII STL, one solid or several, to the same floats', () => {
    const binary = readStl(scan);
    for (const solids of [1, 3]) {
      const ascii = readStl(asciiStlOf(scan, solids));
      expect(ascii.triangles).toBe(2_000);
      expect(ascii.positions).toEqual(binary.positions);
    }
  });

  it('refuses bytes that are not STL', () => {
    const garbage = new Uint8Array(5_000).map((_, i) => (i * 7919) % 256);
    for (const bytes of [garbage, new Uint8Array(0), Buffer.from('PK\x03\x04 a zip, perhaps')]) {
      expect(() => readStl(bytes)).toThrow(/^not a valid STL file/);
    }
  });

  it('refuses a text file that only starts like an ASCII STL', () => {
    const text = Buffer.from('solid notes\nThis file is a letter, not a mesh.\nendsolid notes\n');
    expect(() => readStl(text)).toThrow('not a valid STL file: expected "facet" or "endsolid" at byte 12');
    const truncated = asciiStlOf(scanStl(200)).subarray(0, 3_000);
    expect(() => readStl(truncated)).toThrow(/^not a valid STL file/);
    const badNumber = Buffer.from(
      asciiStlOf(scanStl(200))
        .toString()
        .replace(/vertex \S+/, 'vertex 1.2.3'),
    );
    expect(() => readStl(badNumber)).toThrow(/^not a valid STL file: expected a number/);
  });

  it('refuses a binary STL with a coordinate that is not a number, and one without triangles', () => {
    const withNaN = Buffer.from(scan);
    withNaN.writeFloatLE(NaN, 84 + 50 * 7 + 20);
    expect(() => readStl(withNaN)).toThrow('not a valid STL file: triangle 8 has a coordinate that is not a number');
    expect(() => readStl(binaryWithHeader('solid empty', new Uint8Array(84)))).toThrow(
      'not a valid STL file: it has no triangles',
    );
  });
});

const decoderIo = new NodeIO()
  .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });

/** A GLB back to millimetres: its quantized positions through the node's transform, and the quantization grid's step. */
async function decodeGlb(glb: Uint8Array): Promise<IndexedMesh & { step: number }> {
  await MeshoptDecoder.ready;
  const document = await decoderIo.readBinary(glb);
  const [node] = document.getRoot().listNodes();
  const [primitive] = node!.getMesh()!.listPrimitives();
  const attribute = primitive!.getAttribute('POSITION')!;
  // KHR_mesh_quantization: normalized 16-bit integers in [-1, 1], scaled and moved by the node.
  expect(attribute.getArray()).toBeInstanceOf(Int16Array);
  const matrix = node!.getWorldMatrix();
  const positions = new Float32Array(attribute.getCount() * 3);
  const element: number[] = [];
  for (let vertex = 0; vertex < attribute.getCount(); vertex++) {
    const [x, y, z] = attribute.getElement(vertex, element) as [number, number, number];
    for (let axis = 0; axis < 3; axis++) {
      positions[vertex * 3 + axis] =
        matrix[axis]! * x + matrix[4 + axis]! * y + matrix[8 + axis]! * z + matrix[12 + axis]!;
    }
  }
  // 14 bits with the sign: 2^13 - 1 steps from 0 to 1, times the node's scale.
  const step = Math.max(...node!.getScale()) / (2 ** 13 - 1);
  return { positions, indices: Uint32Array.from(primitive!.getIndices()!.getArray()!), step };
}

/** Each vertex of `mesh`, the index of the nearest vertex of `decoded` within `step` on every axis (-1 where none is). */
function nearestVertices(mesh: IndexedMesh, decoded: IndexedMesh, step: number): Int32Array {
  const cellOf = (p: Float32Array, vertex: number) => [0, 1, 2].map((axis) => Math.floor(p[vertex * 3 + axis]! / step));
  const cells = new Map<string, number[]>();
  for (let vertex = 0; vertex < decoded.positions.length / 3; vertex++) {
    const key = cellOf(decoded.positions, vertex).join();
    cells.set(key, [...(cells.get(key) ?? []), vertex]);
  }
  return Int32Array.from({ length: mesh.positions.length / 3 }, (_, vertex) => {
    const [cx, cy, cz] = cellOf(mesh.positions, vertex) as [number, number, number];
    let [nearest, nearestDistance] = [-1, step];
    for (const dx of [-1, 0, 1])
      for (const dy of [-1, 0, 1])
        for (const dz of [-1, 0, 1]) {
          for (const candidate of cells.get([cx + dx, cy + dy, cz + dz].join()) ?? []) {
            const distance = Math.max(
              ...[0, 1, 2].map((axis) =>
                Math.abs(mesh.positions[vertex * 3 + axis]! - decoded.positions[candidate * 3 + axis]!),
              ),
            );
            if (distance <= nearestDistance) [nearest, nearestDistance] = [candidate, distance];
          }
        }
    return nearest;
  });
}

/** Triangles as keys that ignore which vertex comes first but keep the winding. */
function triangleKeys(indices: ArrayLike<number>, map: (vertex: number) => number = (vertex) => vertex): string[] {
  const keys: string[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const corners = [map(indices[t]!), map(indices[t + 1]!), map(indices[t + 2]!)];
    const first = corners.indexOf(Math.min(...corners));
    keys.push([0, 1, 2].map((k) => corners[(first + k) % 3]).join());
  }
  return keys.sort();
}

describe('makeViewingDerivative', () => {
  it('keeps every triangle with its winding, each vertex within a quantization step of the STL', async () => {
    const stl = planArchStages('lower', { stages: 0, trianglesPerTooth: 2_000 }).next().value!;
    const derivative = await makeViewingDerivative(stl);
    const original = weldVertices(readStl(stl).positions);
    expect(derivative).toMatchObject({
      triangles: original.indices.length / 3,
      vertices: original.positions.length / 3,
    });

    const decoded = await decodeGlb(derivative.glb);
    expect(decoded.step).toBeLessThan(0.01);
    expect(decoded.indices).toHaveLength(original.indices.length);
    const nearest = nearestVertices(original, decoded, decoded.step);
    expect(nearest.indexOf(-1)).toBe(-1);
    expect(new Set(nearest).size).toBe(decoded.positions.length / 3);
    expect(triangleKeys(decoded.indices)).toEqual(triangleKeys(original.indices, (vertex) => nearest[vertex]!));
  });

  it('reads ASCII STL as well', async () => {
    const stl = scanStl(1_000);
    const [fromAscii, fromBinary] = await Promise.all([
      makeViewingDerivative(asciiStlOf(stl)),
      makeViewingDerivative(stl),
    ]);
    expect(fromAscii).toEqual(fromBinary);
  });

  it('has an overview: an eighth of the triangles of a dense scan, on vertices of the full mesh', async () => {
    const stl = scanStl(100_000);
    const derivative = await makeViewingDerivative(stl);
    await MeshoptDecoder.ready;
    const document = await decoderIo.readBinary(derivative.glb);
    const byName = (name: string) =>
      document
        .getRoot()
        .listNodes()
        .find((node) => node.getName() === name)!;
    const triangles = (name: string) => byName(name).getMesh()!.listPrimitives()[0]!.getIndices()!.getCount() / 3;
    expect(triangles('detail')).toBe(100_000);
    expect(triangles('overview')).toBeLessThanOrEqual(100_000 / 8);
    expect(byName('overview').getMesh()!.listPrimitives()[0]!.getAttribute('NORMAL')).not.toBeNull();
    const detail = await decodeGlb(derivative.glb);
    const overviewNode = byName('overview');
    const attribute = overviewNode.getMesh()!.listPrimitives()[0]!.getAttribute('POSITION')!;
    const matrix = overviewNode.getWorldMatrix();
    const positions = new Float32Array(attribute.getCount() * 3);
    for (let vertex = 0; vertex < attribute.getCount(); vertex++) {
      const [x, y, z] = attribute.getElement(vertex, [] as number[]) as [number, number, number];
      for (let axis = 0; axis < 3; axis++) {
        positions[vertex * 3 + axis] =
          matrix[axis]! * x + matrix[4 + axis]! * y + matrix[8 + axis]! * z + matrix[12 + axis]!;
      }
    }
    const overview = { positions, indices: new Uint32Array(0) };
    // Each overview vertex is one of the full mesh's, within the two quantization grids' steps.
    expect(nearestVertices(overview, detail, detail.step * 2).indexOf(-1)).toBe(-1);
  });

  it('is a small fraction of the STL: welded, 16-bit positions, meshopt-compressed', async () => {
    const stl = scanStl(100_000);
    const derivative = await makeViewingDerivative(stl);
    expect(derivative).toMatchObject({ triangles: 100_000, vertices: 50_002 });
    expect(derivative.glb.byteLength).toBeLessThan(stl.byteLength / 8);
  });
});

describe('plan views: stage 0 and each later stage as rigid motions of its shells', () => {
  const [stage0, stage1] = [...planArchStages('lower', { teeth: 3, stages: 1, trianglesPerTooth: 300 })];

  it('finds the shells of stage 0 and fits each stage within float rounding', () => {
    const base = planBase(stage0!);
    expect(base).toMatchObject({ shells: 3, triangles: readStl(stage0!).triangles });
    const { motions, largestMiss } = planStageMotion(stage1!, base);
    expect(motions).toHaveLength(3 * 7);
    expect(largestMiss).toBeLessThan(rigidToleranceMm / 100);
    // Unit quaternions with w >= 0, each a turn of at most 2 degrees.
    for (let shell = 0; shell < 3; shell++) {
      const [x, y, z, w] = motions.subarray(shell * 7 + 3, shell * 7 + 7);
      expect(Math.hypot(x!, y!, z!, w!)).toBeCloseTo(1, 9);
      expect((2 * Math.acos(w!) * 180) / Math.PI).toBeLessThanOrEqual(planStepLimits.rotationDegrees + 1e-6);
    }
  });

  it('refuses a stage with other triangles, one that splits a joined vertex, and one that bends a shell', () => {
    const base = planBase(stage0!);
    expect(() => planStageMotion(planArchStages('lower', { teeth: 2, stages: 0 }).next().value!, base)).toThrow(
      /^the stages are not the same shells moved: a stage has \d+ triangles, stage 0 has \d+/,
    );
    const split = Buffer.from(stage1!);
    // The first triangle's first vertex moved a little: its copies in the triangles around it stay.
    split.writeFloatLE(split.readFloatLE(84 + 12) + 0.001, 84 + 12);
    expect(() => planStageMotion(split, base)).toThrow(/is not joined as in stage 0$/);
    const bent = Buffer.from(stage1!);
    const from = readStl(stage1!).positions;
    const first = [from[0]!, from[1]!, from[2]!];
    for (let corner = 0; corner < from.length / 3; corner++) {
      const at = 84 + Math.floor(corner / 3) * 50 + 12 + (corner % 3) * 12;
      if ([0, 1, 2].every((axis) => from[corner * 3 + axis] === first[axis])) bent.writeFloatLE(first[0]! + 0.05, at);
    }
    expect(() => planStageMotion(bent, base)).toThrow(/a shell changes shape between stages/);
  });
});

describe('createDerivativePool', () => {
  it('converts in a worker thread: the event loop keeps running meanwhile, the STL moves there', async () => {
    const pool = createDerivativePool();
    const stl = scanStl(300_000);
    let ticksWhileConverting = 0;
    const ticker = setInterval(() => (ticksWhileConverting += pool.converting), 5);
    try {
      const derivative = await pool.convert(stl);
      expect(derivative.triangles).toBe(300_000);
      expect(ticksWhileConverting).toBeGreaterThan(0);
      expect(stl.byteLength).toBe(0);
      expect((await decodeGlb(derivative.glb)).indices).toHaveLength(300_000 * 3);
      // The thread (idle now, kept for the next conversion) runs below normal priority (nice 10).
      const niceOf = (stat: string) => Number(stat.split(') ')[1]!.split(' ')[16]);
      const threads = readdirSync('/proc/self/task').map((tid) =>
        niceOf(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')),
      );
      expect(Math.max(...threads)).toBe(10);
    } finally {
      clearInterval(ticker);
      await pool.close();
    }
  });

  it('runs at most `threads` conversions at once, queues up to `queue` and refuses more with 503', async () => {
    const pool = createDerivativePool({ threads: 2, queue: 2 });
    let mostAtOnce = 0;
    let mostWaiting = 0;
    const ticker = setInterval(() => {
      mostAtOnce = Math.max(mostAtOnce, pool.converting);
      mostWaiting = Math.max(mostWaiting, pool.waiting);
    }, 1);
    try {
      const stls = [1, 2, 3, 4, 5].map((seed) => scanStl(20_000, seed));
      const results = await Promise.allSettled(stls.map((stl) => pool.convert(stl)));
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
      ]);
      expect((results[4] as PromiseRejectedResult).reason).toMatchObject({ status: 503 });
      expect(mostAtOnce).toBe(2);
      expect(mostWaiting).toBeLessThanOrEqual(2);
      expect(pool.converting + pool.waiting).toBe(0);
    } finally {
      clearInterval(ticker);
      await pool.close();
    }
  });

  it('refuses a file that is not STL with 400, and converts the next one', async () => {
    const pool = createDerivativePool();
    try {
      await expect(pool.convert(Buffer.from('solid letter\nDear doctor,\n'))).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^not a valid STL file/),
      });
      // A view into a larger buffer is copied, not moved: the caller's other bytes stay.
      const stl = scanStl(1_000);
      const larger = new Uint8Array(stl.length + 16);
      larger.set(stl, 16);
      expect((await pool.convert(larger.subarray(16))).triangles).toBe(1_000);
      expect(larger.subarray(16)).toEqual(stl);
    } finally {
      await pool.close();
    }
  });

  it('refuses at once an STL whose triangles all have no area (one point repeated), and drops such triangles from a mesh', async () => {
    const pool = createDerivativePool();
    try {
      // 200,000 facets whose every byte is 7: one point. meshoptimizer took minutes on it.
      const onePoint = Buffer.alloc(84 + 50 * 200_000, 7);
      onePoint.writeUInt32LE(200_000, 80);
      const started = performance.now();
      await expect(pool.convert(onePoint)).rejects.toMatchObject({
        status: 400,
        message: 'not a valid STL file: every triangle in it has no area',
      });
      console.log(
        `[figure] a 200,000-facet STL of one point refused in ${(performance.now() - started).toFixed(0)} ms`,
      );
      // A scan with two of its triangles collapsed (two corners joined): the copy keeps the others.
      const stl = Buffer.from(scanStl(1_000));
      for (const facet of [10, 500]) stl.copy(stl, 84 + 50 * facet + 24, 84 + 50 * facet + 12, 84 + 50 * facet + 24);
      const derivative = await pool.convert(stl);
      expect(derivative.triangles).toBe(998);
      expect((await decodeGlb(derivative.glb)).indices).toHaveLength(998 * 3);
    } finally {
      await pool.close();
    }
  });

  it('ends a conversion that runs past its time limit and refuses the mesh with 400, its thread free again', async () => {
    const pool = createDerivativePool({ timeLimitMs: 1 });
    try {
      await expect(pool.convert(scanStl(300_000))).rejects.toMatchObject({
        status: 400,
        message: 'This mesh took longer than 0.001 s to convert.',
      });
      expect(pool.converting + pool.waiting).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('has its worker entry in dist/ after the build', async () => {
    await compiledServer();
    const worker = (await import(path.join(serverDist, 'derivative-worker.js'))) as {
      convertStl: (stl: Uint8Array) => Promise<Record<symbol, ViewingDerivative>>;
      planBase: (stl: Uint8Array) => Record<symbol, PlanBase>;
    };
    const moved = await worker.convertStl(scanStl(1_000));
    expect(moved[valueSymbol]!.triangles).toBe(1_000);
    const stage0 = planArchStages('upper', { teeth: 2, stages: 0, trianglesPerTooth: 100 }).next().value!;
    expect(worker.planBase(stage0)[valueSymbol]!.shells).toBe(2);
  });
});

/** The mesh's connected shells (triangles joined through shared vertices), each as its vertices. */
function shellsOf(mesh: IndexedMesh): number[][] {
  const parent = Int32Array.from({ length: mesh.positions.length / 3 }, (_, vertex) => vertex);
  const root = (vertex: number): number => {
    while (parent[vertex] !== vertex) vertex = parent[vertex] = parent[parent[vertex]!]!;
    return vertex;
  };
  for (let i = 0; i < mesh.indices.length; i += 3) {
    parent[root(mesh.indices[i + 1]!)] = root(mesh.indices[i]!);
    parent[root(mesh.indices[i + 2]!)] = root(mesh.indices[i]!);
  }
  const shells = new Map<number, number[]>();
  for (let vertex = 0; vertex < parent.length; vertex++) {
    const shell = shells.get(root(vertex));
    if (shell) shell.push(vertex);
    else shells.set(root(vertex), [vertex]);
  }
  return [...shells.values()];
}

/** Edges that are not shared by exactly two triangles running them in opposite directions. */
function openOrTwistedEdges(mesh: IndexedMesh): number {
  const directed = new Map<number, number>();
  const vertices = mesh.positions.length / 3;
  for (let i = 0; i < mesh.indices.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const key = mesh.indices[i + k]! * vertices + mesh.indices[i + ((k + 1) % 3)]!;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  let bad = 0;
  for (const [key, count] of directed) {
    const reverse = (key % vertices) * vertices + Math.floor(key / vertices);
    if (count !== 1 || directed.get(reverse) !== 1) bad++;
  }
  return bad;
}

const point = (mesh: IndexedMesh, vertex: number) => Array.from(mesh.positions.subarray(vertex * 3, vertex * 3 + 3));
const minus = (p: number[], q: number[]) => p.map((value, axis) => value - q[axis]!);
const dot = (p: number[], q: number[]) => p.reduce((sum, value, axis) => sum + value * q[axis]!, 0);

/** An orthonormal frame (rows) from three points of a rigid body. */
function frameOf(a: number[], b: number[], c: number[]): number[][] {
  const unit = (p: number[]) => p.map((value) => value / Math.hypot(...p));
  const e1 = unit(minus(b, a));
  const ac = minus(c, a);
  const e2 = unit(
    minus(
      ac,
      e1.map((value) => value * dot(ac, e1)),
    ),
  );
  return [
    e1,
    e2,
    [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!],
  ];
}

function centroidOf(mesh: IndexedMesh, vertices: number[]): number[] {
  const sum = vertices.reduce(
    (total, vertex) => total.map((value, axis) => value + mesh.positions[vertex * 3 + axis]!),
    [0, 0, 0],
  );
  return sum.map((value) => value / vertices.length);
}

describe('planArchStages (test helper)', () => {
  it('makes each tooth a closed, outward-facing shell of its own', () => {
    for (const [arch, teeth, trianglesPerTooth] of [
      ['lower', 14, undefined],
      ['upper', 16, 1_000],
    ] as const) {
      const stage = weldVertices(
        readStl(planArchStages(arch, { teeth, stages: 0, trianglesPerTooth }).next().value!).positions,
      );
      const shells = shellsOf(stage);
      expect(shells).toHaveLength(teeth);
      expect(openOrTwistedEdges(stage)).toBe(0);
      for (const shell of shells) {
        const inShell = new Set(shell);
        let volume = 0;
        for (let i = 0; i < stage.indices.length; i += 3) {
          if (!inShell.has(stage.indices[i]!)) continue;
          const [a, b, c] = [0, 1, 2].map((k) => point(stage, stage.indices[i + k]!)) as [number[], number[], number[]];
          volume +=
            dot(a, [b[1]! * c[2]! - b[2]! * c[1]!, b[2]! * c[0]! - b[0]! * c[2]!, b[0]! * c[1]! - b[1]! * c[0]!]) / 6;
        }
        // A crown of 7-11 mm by 6-10 mm by about 10 mm.
        expect(volume).toBeGreaterThan(200);
        expect(volume).toBeLessThan(1_200);
      }
    }
    expect(readStl(planArchStages('lower', { stages: 0 }).next().value!).triangles).toBeGreaterThan(140_000);
  });

  it('moves each tooth rigidly from stage to stage, within 0.3 mm and 2 degrees, keeping its triangles', () => {
    const stages = [...planArchStages('upper', { stages: 4, trianglesPerTooth: 2_000, seed: 7 })].map((stl) =>
      weldVertices(readStl(stl).positions),
    );
    expect(stages).toHaveLength(5);
    const shells = shellsOf(stages[0]!);
    let largestStep = 0;
    for (let stage = 1; stage < stages.length; stage++) {
      const [before, after] = [stages[stage - 1]!, stages[stage]!];
      expect(after.indices).toEqual(before.indices);
      for (const shell of shells) {
        const step = Math.hypot(...minus(centroidOf(after, shell), centroidOf(before, shell)));
        expect(step).toBeLessThanOrEqual(planStepLimits.translationMm + 1e-4);
        largestStep = Math.max(largestStep, step);
        const corners = [shell[0]!, shell[Math.floor(shell.length / 3)]!, shell[Math.floor((2 * shell.length) / 3)]!];
        const [from, to] = [before, after].map((mesh) =>
          frameOf(...(corners.map((vertex) => point(mesh, vertex)) as [number[], number[], number[]])),
        );
        // The rotation is to x from; its trace is 1 + 2 cos(angle).
        const trace = [0, 1, 2].reduce((sum, axis) => sum + dot(from![axis]!, to![axis]!), 0);
        const degrees = (Math.acos(Math.min(1, (trace - 1) / 2)) * 180) / Math.PI;
        expect(degrees).toBeLessThanOrEqual(planStepLimits.rotationDegrees + 1e-3);
        const side = (mesh: IndexedMesh) => Math.hypot(...minus(point(mesh, corners[1]!), point(mesh, corners[0]!)));
        expect(side(after)).toBeCloseTo(side(before), 4);
      }
    }
    expect(largestStep).toBeGreaterThan(planStepLimits.translationMm / 2);
  });
});
