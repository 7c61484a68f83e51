import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { everyFieldSample, readableCaseFields } from '../../../../e2e/helpers/case-field-sample.ts';
import { createDoctor, makeImage, type CreatedDoctor } from './factories.ts';
import type { TestApp } from './test-app.ts';

export { everyFieldSample };

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface UploadFile {
  data: Buffer;
  name: string;
  type?: string;
}

/** A binary STL with `triangles` facets; `declared` lets a test lie about the count. */
export function binaryStl(triangles: number, declared = triangles): Buffer {
  const data = Buffer.alloc(84 + 50 * triangles);
  data.write('binary stl made in tests', 0, 'latin1');
  data.writeUInt32LE(declared, 80);
  for (let i = 0; i < triangles * 50; i++) data[84 + i] = (i * 7) % 251;
  return data;
}

export const asciiStl = () =>
  Buffer.from(
    'solid cube\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid cube\n',
  );

/** An empty ZIP archive (end-of-central-directory record only). */
export const emptyZip = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
const smallZip = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]);
const smallRar = () => Buffer.concat([Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1'), Buffer.alloc(40, 2)]);

/**
 * Every text field of a valid submission: a value for each field of the case field table
 * (`everyFieldSample`, so a new field is sent too), readable ones where tests look for them;
 * `clinicId` must be one of the doctor's.
 */
export function caseFields(
  clinicId: number,
  overrides: Record<string, string | number | boolean> = {},
): Record<string, string | number | boolean> {
  return { ...everyFieldSample(clinicId), ...readableCaseFields, termsAndCondition: 'true', ...overrides };
}

/** A multipart body: fields first, then files (a list for a multi-file field). */
export function caseForm(
  fields: Record<string, string | number | boolean>,
  files: Record<string, UploadFile | UploadFile[]> = {},
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [name, entry] of Object.entries(files)) {
    for (const file of Array.isArray(entry) ? entry : [entry]) {
      form.append(
        name,
        new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
        file.name,
      );
    }
  }
  return form;
}

/** One file for every file field of the form, each with different bytes. */
export async function everyCaseFile(): Promise<Record<string, UploadFile | UploadFile[]>> {
  const png = (size: number) =>
    makeImage('png', size).then((data) => ({ data, name: `photo-${size}.png`, type: 'image/png' }));
  const jpeg = (size: number) =>
    makeImage('jpeg', size).then((data) => ({ data, name: `photo-${size}.jpg`, type: 'image/jpeg' }));
  return {
    maxillaryScan: { data: binaryStl(40), name: 'upper arch.stl' },
    mandibularScan: { data: asciiStl(), name: 'lower.STL' },
    rightBiteScan: { data: smallZip(), name: 'right-bite.zip' },
    leftBiteScan: { data: smallRar(), name: 'left-bite.rar' },
    frontSmiling: await png(40),
    facialProfile: await jpeg(41),
    front: await png(42),
    upperOcclusal: await jpeg(43),
    lowerOcclusal: await png(44),
    rightLateral: await jpeg(45),
    frontal: await png(46),
    leftLateral: await jpeg(47),
    opv: await png(48),
    leteralCeloform: await jpeg(49),
    compositeImage: await png(50),
    otherFiles: [await png(51), { ...(await jpeg(52)), name: 'Röntgen extra.jpeg' }],
  };
}

export function submitCase(t: TestApp, token: string, form: FormData): Promise<LightMyRequestResponse> {
  return t.as(token, { method: 'POST', url: '/api/case/add', payload: form });
}

/** An active, signed-in doctor and the id of their clinic. */
export async function createCaseDoctor(
  t: TestApp,
  fields: Record<string, string> = {},
): Promise<CreatedDoctor & { token: string; clinicId: number }> {
  const doctor = await createDoctor(t, { active: true, fields });
  const clinics = await t.as(doctor.token!, {
    method: 'GET',
    url: `/api/clinic/get_clinics_list_by_user_id/${doctor.userId}`,
  });
  return { ...doctor, token: doctor.token!, clinicId: clinics.json<{ ClinicId: number }[]>()[0]!.ClinicId };
}

/** Every object under the local storage's case folder. */
export async function storedCaseFiles(t: TestApp): Promise<string[]> {
  const folder = path.join(t.dataDir, 'files', 'cases');
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function caseRowCounts(t: TestApp): Promise<{ cases: number; attachments: number; history: number }> {
  const count = async (table: string) => {
    const result = await t.app.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };
  return {
    cases: await count('cases'),
    attachments: await count('case_attachments'),
    history: await count('case_status_history'),
  };
}

/** Rows and stored files now, to compare after a refused request. */
export async function snapshot(t: TestApp) {
  return { rows: await caseRowCounts(t), files: (await storedCaseFiles(t)).length };
}

/** A form as the bytes and content type a browser sends, for tests that write them to a socket themselves. */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
