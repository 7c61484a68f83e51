import { Session } from 'node:inspector/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStl } from '../src/meshes/stl.ts';
import type { IndexedMesh } from '../src/meshes/weld.ts';
import { collidingStl, fixedVertexHash } from './helpers/colliding-stl.ts';
import { planArchStages, scanStl } from './helpers/dental-meshes.ts';

/**
 * Welding a triangle soup (meshes/weld.ts, issue 40): the same mesh as before for real
 * files, and a file crafted against the hash costs about what a normal one does. The work
 * is counted, not timed: V8's precise block coverage counts each block of weld.ts each time
 * it runs, exactly and whatever the machine's speed.
 */

const session = new Session();
let weld: typeof import('../src/meshes/weld.ts');

beforeAll(async () => {
  session.connect();
  await session.post('Profiler.enable');
  // Before weld.ts is compiled, so that its functions count their blocks: an instance of its
  // own (the query), as other files of this worker may have imported it already.
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const counted = '../src/meshes/weld.ts?counted';
  weld = (await import(counted)) as typeof import('../src/meshes/weld.ts');
});
afterAll(async () => {
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
});

/** Blocks of weld.ts run while welding `stl` (each block once per run of it). */
async function weldWork(stl: Uint8Array): Promise<number> {
  const soup = readStl(stl).positions;
  // Taking the coverage resets its counts.
  await session.post('Profiler.takePreciseCoverage');
  weld.weldVertices(soup);
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const script = result.find((taken) => taken.url.includes('/meshes/weld.ts'));
  expect(script, 'weld.ts among the covered scripts').toBeDefined();
  return script!.functions.flatMap((fn) => fn.ranges).reduce((total, range) => total + range.count, 0);
}

/** The welding by its definition: each distinct (x, y, z), -0 as 0, numbered in the order the soup first reaches it. */
function referenceWeld(soup: Float32Array): IndexedMesh {
  const places = new Map<string, number>();
  const positions: number[] = [];
  const indices = new Uint32Array(soup.length / 3);
  for (let vertex = 0; vertex < indices.length; vertex++) {
    const coordinates = [...soup.subarray(vertex * 3, vertex * 3 + 3)].map((value) => value + 0);
    const key = coordinates.join(' ');
    if (!places.has(key)) {
      places.set(key, places.size);
      positions.push(...coordinates);
    }
    indices[vertex] = places.get(key)!;
  }
  return { positions: new Float32Array(positions), indices };
}

const soupOf = (stl: Uint8Array) => readStl(stl).positions;

describe('weldVertices', () => {
  const planStage = [...planArchStages('lower', { stages: 1 })][1]!;
  const withSignedZeros = new Float32Array([0, 1, 2, -0, 1, 2, 3, -0, 0, 3, 0, -0, 0, 1, 2, 5, 5, 5]);

  it('gives each place once, in the order the soup reaches them, by its table and by sorting alike', () => {
    // A scan, a plan stage's first teeth (of 148,000 triangles: the reference is slow), -0 beside 0.
    for (const soup of [soupOf(scanStl(5_000)), soupOf(planStage).subarray(0, 9 * 20_000), withSignedZeros]) {
      const expected = referenceWeld(soup);
      expect(weld.weldVertices(soup)).toEqual(expected);
      expect(weld.weldBySorting(soup)).toEqual(expected);
    }
    expect(weld.weldVertices(withSignedZeros).indices).toEqual(new Uint32Array([0, 0, 1, 1, 0, 2]));
  });

  it('welds a file crafted against its hash correctly: every vertex its own', () => {
    const crafted = soupOf(collidingStl(2_000));
    const bits = new Uint32Array(crafted.buffer, crafted.byteOffset, crafted.length);
    const hashes = new Set<number>();
    for (let at = 0; at < bits.length; at += 3) hashes.add(fixedVertexHash(bits[at]!, bits[at + 1]!, bits[at + 2]!));
    // What an attacker sends: 6,000 distinct vertices, one hash.
    expect(hashes.size).toBe(1);
    const welded = weld.weldVertices(crafted);
    expect(welded.positions).toHaveLength(crafted.length);
    expect(welded).toEqual(referenceWeld(crafted));
  });

  it("costs for a crafted file a few times a normal file's work of its size, growing with it in step, not with its square", async () => {
    const normal = await weldWork(scanStl(2_000));
    const crafted = await weldWork(collidingStl(2_000));
    const craftedTwiceAsLarge = await weldWork(collidingStl(4_000));
    // A table probing past every earlier vertex did 65 million blocks' work against 75 thousand, and four times that at twice the size.
    expect(crafted).toBeLessThan(16 * normal);
    expect(craftedTwiceAsLarge).toBeLessThan(2.5 * crafted);
  });
});
