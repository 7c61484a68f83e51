import { crc32, deflateRawSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { UploadFile } from './case-factories.ts';
import { planArchStages } from './dental-meshes.ts';
import type { TestApp } from './test-app.ts';

/** A plan summary with `upper` and `lower` stages; the rest as a lab would fill it. */
export const planSummaryOf = (upper: number, lower: number, extra: Record<string, unknown> = {}) => ({
  upperStages: upper,
  lowerStages: lower,
  ipr: [{ contact: '11-21', amountMm: 0.2, stage: 1 }],
  attachmentTeeth: [13, 23],
  attachmentStages: upper > 0 ? [{ tooth: 23, stage: 1 }] : [],
  notes: 'Attachments on the canines.',
  ...extra,
});

/**
 * A small plan: per stage 0..N of each arch with stages a binary STL of two teeth of about
 * 80 triangles each, moved from stage to stage as a lab's plan moves them (so the viewer's
 * copy of the plan can be made of them), named `upper_03.stl` style.
 */
export function stageFiles(
  upper: number,
  lower: number,
  name = (arch: string, stage: number) => `${arch}_${String(stage).padStart(2, '0')}.stl`,
): UploadFile[] {
  const files: UploadFile[] = [];
  for (const [arch, count] of [
    ['upper', upper],
    ['lower', lower],
  ] as const) {
    if (count === 0) continue;
    let stage = 0;
    for (const stl of planArchStages(arch, { teeth: 2, stages: count, trianglesPerTooth: 80 })) {
      files.push({ name: name(arch, stage), data: Buffer.from(stl) });
      stage++;
    }
  }
  return files;
}

/** The plan form: `summary` (an object is sent as JSON, a string as it is) and the `stages` files. */
export function planForm(summary: unknown, files: UploadFile[]): FormData {
  const form = new FormData();
  if (summary !== undefined) form.append('summary', typeof summary === 'string' ? summary : JSON.stringify(summary));
  for (const file of files) {
    form.append('stages', new Blob([new Uint8Array(file.data)], { type: 'application/octet-stream' }), file.name);
  }
  return form;
}

export interface ZipEntryInput {
  name: string;
  data: Buffer;
  /** Store instead of deflate. */
  stored?: boolean;
  /** Lie in the headers about the unpacked size. */
  declaredSize?: number;
}

/** A ZIP archive built here (node:zlib's raw deflate and crc32): local headers, central directory, end record. */
export function zipOf(entries: ZipEntryInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.stored ? entry.data : deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const method = entry.stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export function uploadPlan(
  t: TestApp,
  token: string | null,
  caseId: number,
  form: FormData,
): Promise<LightMyRequestResponse> {
  return t.as(token, { method: 'POST', url: `/api/case/${caseId}/plans`, payload: form });
}

/**
 * Gives a case an approved plan through the API: staff upload a version (`form`, a one-stage
 * plan unless given), the case's doctor approves it once it is checked, acknowledging what the
 * check found (the rule before dispatch, docs/decisions/plans.md § Treatment plans).
 */
export async function approvedPlan(
  t: TestApp,
  staffToken: string,
  doctorToken: string,
  caseId: number,
  form = planForm(planSummaryOf(1, 1), stageFiles(1, 1)),
): Promise<{ planId: number; version: number }> {
  const uploaded = await uploadPlan(t, staffToken, caseId, form);
  if (uploaded.statusCode !== 200) throw new Error(`plan upload failed: ${uploaded.statusCode} ${uploaded.body}`);
  const plan = uploaded.json<{ planId: number; version: number }>();
  // The approval waits for the check against the prescription: the movements measured (plan-findings.ts).
  await t.app.jobs.runDue();
  const approved = await t.as(doctorToken, {
    method: 'POST',
    url: `/api/case/${caseId}/plans/${plan.planId}/approve`,
    payload: { reviewedIn3d: true, findingsAcknowledged: true },
  });
  if (approved.statusCode !== 200) throw new Error(`plan approval failed: ${approved.statusCode} ${approved.body}`);
  return plan;
}
