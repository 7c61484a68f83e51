import { crc32, deflateRawSync } from 'node:zlib';
import { endpoints, type createApiClient } from '@portal/contract';
import { scaled } from './test-time.ts';

/** Binary STL of `triangles` (9 numbers each). */
function binaryStl(triangles: number[][], header: string): Buffer {
  const data = Buffer.alloc(84 + 50 * triangles.length);
  data.write(header, 0, 'latin1');
  data.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, t) =>
    triangle.forEach((value, i) => data.writeFloatLE(value, 84 + 50 * t + 12 + i * 4)),
  );
  return data;
}

/** An octahedron's 8 faces, outward, as corner numbers into its 6 vertices (+x, -x, +y, -y, +z, -z). */
const octahedronFaces = [
  [0, 2, 4],
  [2, 1, 4],
  [1, 3, 4],
  [3, 0, 4],
  [2, 0, 5],
  [1, 2, 5],
  [3, 1, 5],
  [0, 3, 5],
];

/**
 * One arch's stage as a lab's software writes it: `teeth` closed shells (octahedra 4 mm
 * across, 10 mm apart), each moved rigidly from stage 0 by `stage` x (0.2 mm along y and 1
 * degree about its own vertical axis), so the server can make the plan's copy for the viewer.
 */
function movedTeethStl(stage: number, teeth: number, lift: number): Buffer {
  const triangles: number[][] = [];
  const angle = (stage * Math.PI) / 180;
  for (let tooth = 0; tooth < teeth; tooth++) {
    const centre = [tooth * 10 - (teeth - 1) * 5, stage * 0.2, lift];
    const vertices = [
      [2, 0, 0],
      [-2, 0, 0],
      [0, 2, 0],
      [0, -2, 0],
      [0, 0, 3],
      [0, 0, -3],
    ].map(([x, y, z]) => [
      centre[0]! + x! * Math.cos(angle) - y! * Math.sin(angle),
      centre[1]! + x! * Math.sin(angle) + y! * Math.cos(angle),
      centre[2]! + z!,
    ]);
    for (const face of octahedronFaces) triangles.push(face.flatMap((corner) => vertices[corner]!));
  }
  return binaryStl(triangles, 'e2e plan stage');
}

/** A flat triangle per tooth that grows from stage to stage: a shape that changes, which no rigid motion gives. */
function reshapedStl(size: number): Buffer {
  const triangles = Array.from({ length: 4 }, (_, t) => [
    t * 10,
    0,
    size,
    t * 10 + 8,
    0,
    size,
    t * 10 + 4,
    8 + size,
    size,
  ]);
  return binaryStl(triangles, 'e2e stage model');
}

/**
 * One STL per stage 0..N of each arch with stages, named `upper_03.stl` style: teeth moved
 * rigidly, or with `reshaped`, shapes that change from stage to stage (no copy of the plan
 * can be made for the viewer, which then shows the stage files).
 */
export function stageFiles(upper: number, lower: number, { reshaped = false } = {}): { name: string; data: Buffer }[] {
  const files: { name: string; data: Buffer }[] = [];
  for (const [arch, count] of [
    ['upper', upper],
    ['lower', lower],
  ] as const) {
    for (let stage = 0; count > 0 && stage <= count; stage++) {
      const lift = arch === 'lower' ? -8 : 8;
      files.push({
        name: `${arch}_${String(stage).padStart(2, '0')}.stl`,
        data: reshaped ? reshapedStl(stage + (arch === 'lower' ? 20 : 0)) : movedTeethStl(stage, 3, lift),
      });
    }
  }
  return files;
}

/** A ZIP of the files (stored entries, no compression), built with node:zlib's crc32. */
export function zipOf(files: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const body = deflateRawSync(file.data);
    const header = (size: number) => {
      const buffer = Buffer.alloc(size);
      return buffer;
    };
    const local = header(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(file.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = header(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(file.data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Gives a case an approved treatment plan through the API (dispatch needs one,
 * docs/decisions/plans.md § Treatment plans): staff upload a one-stage version, the doctor approves it.
 * `api` is the portal's client (e2e: portalApi(); the benchmarks: their own), so this file
 * stays free of the browser helpers.
 */
export async function giveApprovedPlan(
  api: ReturnType<typeof createApiClient>,
  staffToken: string,
  doctorToken: string,
  caseId: number,
): Promise<void> {
  const form = new FormData();
  form.append('summary', JSON.stringify({ upperStages: 1, lowerStages: 0, ipr: [], attachmentTeeth: [], notes: '' }));
  for (const file of stageFiles(1, 0)) form.append('stages', new Blob([new Uint8Array(file.data)]), file.name);
  const { planId } = await api.call(endpoints.planUpload, { params: { caseId }, body: form }, { token: staffToken });
  // The approval waits for the check against the prescription: the portal's job measures the movements.
  const deadline = Date.now() + scaled(60_000);
  for (;;) {
    const plans = await api.call(endpoints.planList, { params: { caseId } }, { token: doctorToken });
    if (plans.find((plan) => plan.planId === planId)?.findingsCheck.state !== 'pending') break;
    if (Date.now() > deadline) throw new Error(`plan ${planId} was still being checked after its deadline`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await api.call(
    endpoints.planApprove,
    { params: { caseId, planId }, body: { reviewedIn3d: true, findingsAcknowledged: true } },
    { token: doctorToken },
  );
}
