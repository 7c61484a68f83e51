import type { PlanArch } from '@portal/contract';
import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { PlanBase } from '../../meshes/plan-view.ts';
import type { Storage } from '../../storage/storage.ts';

/**
 * A plan version's arch as a progress fit takes it (docs/decisions/progress-scans.md § The plan,
 * read once): stage 0's welded mesh and shells, and each later stage's motion of each shell,
 * gzipped in one object of about a megabyte. The plan's processing (plan-views.ts) stores it
 * when it has read the stages; a fit then reads it instead of every stage's STL (31 of 8 MB
 * each for a 30-stage arch of 150k triangles). A plan processed before it existed has it
 * stored by its first fit. Stage files never change once uploaded, so neither does this.
 */

export interface StoredPlanArch {
  positions: Float32Array<ArrayBuffer>;
  indices: Uint32Array<ArrayBuffer>;
  shellOf: Uint32Array<ArrayBuffer>;
  shells: number;
  /** Per stage from 1: per shell translation (x, y, z) then rotation quaternion (x, y, z, w). */
  stageMotions: Float64Array[];
}

/**
 * Under a folder of its own: `plans/` and `views/` are swept of objects no row names, and this
 * one is named by its plan and arch alone.
 */
export const planFitKey = (planId: number, arch: PlanArch) => `plan-fits/${planId}-${arch}.bin.gz`;

const magic = 0x54494650; // "PFIT", little-endian
/** Raised when the layout changes: an object of another version is read as absent, and stored again. */
const version = 1;
const headerWords = 6;

/** Header (magic, version, vertices, triangles, shells, stages), then positions, indices, shells, motions. */
export function encodePlanArch(
  base: Pick<PlanBase, 'positions' | 'indices' | 'shellOf' | 'shells'>,
  stageMotions: Float64Array[],
) {
  const vertices = base.positions.length / 3;
  const triangles = base.indices.length / 3;
  const header = Uint32Array.of(magic, version, vertices, triangles, base.shells, stageMotions.length);
  const parts = [header, base.positions, base.indices, base.shellOf, ...stageMotions];
  return Buffer.concat(parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)));
}

/** The arch `encodePlanArch` wrote, or undefined for anything else (another version, a cut-off object). */
export function decodePlanArch(bytes: Uint8Array): StoredPlanArch | undefined {
  if (bytes.byteLength < headerWords * 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (i: number) => view.getUint32(i * 4, true);
  if (word(0) !== magic || word(1) !== version) return undefined;
  const [vertices, triangles, shells, stages] = [word(2), word(3), word(4), word(5)];
  const sizes = [vertices * 12, triangles * 12, vertices * 4, stages * shells * 56];
  if (bytes.byteLength !== headerWords * 4 + sizes.reduce((sum, size) => sum + size, 0)) return undefined;
  let at = bytes.byteOffset + headerWords * 4;
  // Copied out of the inflated buffer: typed arrays need their own alignment.
  const take = (length: number) => bytes.buffer.slice(at, (at += length)) as ArrayBuffer;
  const positions = new Float32Array(take(sizes[0]!));
  const indices = new Uint32Array(take(sizes[1]!));
  const shellOf = new Uint32Array(take(sizes[2]!));
  const stageMotions = Array.from({ length: stages }, () => new Float64Array(take(shells * 56)));
  return { positions, indices, shellOf, shells, stageMotions };
}

export async function storePlanFitData(
  storage: Storage,
  planId: number,
  arch: PlanArch,
  base: Pick<PlanBase, 'positions' | 'indices' | 'shellOf' | 'shells'>,
  stageMotions: Float64Array[],
): Promise<void> {
  await storage.put(
    planFitKey(planId, arch),
    await promisify(gzip)(encodePlanArch(base, stageMotions)),
    'application/gzip',
  );
}

/** The stored arch, or undefined when there is none of this layout with `stages` stages after stage 0. */
export async function readPlanFitData(
  storage: Storage,
  planId: number,
  arch: PlanArch,
  stages: number,
): Promise<StoredPlanArch | undefined> {
  const key = planFitKey(planId, arch);
  if (!(await storage.stat(key))) return undefined;
  const packed = await buffer(await storage.read(key));
  // A damaged object is read as absent: the fit reads the stages and stores it again.
  const stored = decodePlanArch(await promisify(gunzip)(packed).catch(() => new Uint8Array(0)));
  return stored?.stageMotions.length === stages ? stored : undefined;
}
