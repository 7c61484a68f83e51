import { crc32, deflateRawSync } from 'node:zlib';
import { endpoints, type createApiClient } from '@portal/contract';

/** A small binary STL: one flat triangle per `size`, so each stage's file differs. */
function stageStl(size: number): Buffer {
  const triangles = 4;
  const data = Buffer.alloc(84 + 50 * triangles);
  data.write('e2e stage model', 0, 'latin1');
  data.writeUInt32LE(triangles, 80);
  for (let t = 0; t < triangles; t++) {
    const at = 84 + 50 * t;
    data.writeFloatLE(0, at);
    data.writeFloatLE(0, at + 4);
    data.writeFloatLE(1, at + 8);
    const vertices = [
      [t * 10, 0, size],
      [t * 10 + 8, 0, size],
      [t * 10 + 4, 8 + size, size],
    ];
    vertices.flat().forEach((value, index) => data.writeFloatLE(value, at + 12 + index * 4));
  }
  return data;
}

/** One STL per stage 0..N of each arch with stages, named `upper_03.stl` style. */
export function stageFiles(upper: number, lower: number): { name: string; data: Buffer }[] {
  const files: { name: string; data: Buffer }[] = [];
  for (const [arch, count] of [
    ['upper', upper],
    ['lower', lower],
  ] as const) {
    for (let stage = 0; count > 0 && stage <= count; stage++) {
      files.push({
        name: `${arch}_${String(stage).padStart(2, '0')}.stl`,
        data: stageStl(stage + (arch === 'lower' ? 20 : 0)),
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
 * docs/decisions.md § Treatment plans): staff upload a one-stage version, the doctor approves it.
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
  await api.call(endpoints.planApprove, { params: { caseId, planId } }, { token: doctorToken });
}
