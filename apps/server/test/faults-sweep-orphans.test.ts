import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanedCaseFiles } from '../src/services/cases/sweep-orphaned-files.ts';
import { LocalStorage } from '../src/storage/local-storage.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import type { Storage } from '../src/storage/storage.ts';
import { binaryStl, caseFields, caseForm, createCaseDoctor, sha256, submitCase } from './helpers/case-factories.ts';
import { s3rverCredentials, startS3rver } from './helpers/s3rver.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { clockPastWrites } from './helpers/wait-until.ts';

const bucket = 'sweep-test';
const hour = 3600;

let s3: Awaited<ReturnType<typeof startS3rver>>;
let localRoot: string;
beforeAll(async () => {
  s3 = await startS3rver(bucket);
  localRoot = await mkdtemp(path.join(os.tmpdir(), 'sweep-test-'));
});
afterAll(async () => {
  await s3?.stop();
  await rm(localRoot, { recursive: true, force: true });
});

const drivers: { name: string; create(): Storage }[] = [
  { name: 'LocalStorage', create: () => new LocalStorage(localRoot) },
  {
    name: 'S3Storage',
    // Two keys a page, so the sweep deletes while it follows continuation tokens.
    create: () =>
      new S3Storage({ bucket, endpoint: s3.endpoint, region: 'us-east-1', listPageSize: 2, ...s3rverCredentials }),
  },
];

async function keysUnder(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of storage.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

/** What a killed upload leaves: files under a fresh upload folder, one of them a partial write. */
async function putOrphans(storage: Storage, count: number): Promise<string[]> {
  const folder = `cases/${randomUUID()}`;
  const keys = Array.from({ length: count }, (_, index) =>
    index === 0
      ? `${folder}/${randomBytes(12).toString('hex')}.abcdef123456.partial`
      : `${folder}/${randomBytes(12).toString('hex')}`,
  );
  for (const key of keys) await storage.put(key, randomBytes(100), 'application/octet-stream');
  return keys;
}

describe.each(drivers)('sweepOrphanedCaseFiles on $name', (driver) => {
  let t: TestApp;
  let storage: Storage;
  /** Keys of a real case's attachments, and each one's SHA-256. */
  let caseFiles: Map<string, string>;
  beforeAll(async () => {
    storage = driver.create();
    t = await createTestApp({ storage });
    const doctor = await createCaseDoctor(t);
    const scan = binaryStl(200);
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
        maxillaryScan: { data: scan, name: 'upper.stl' },
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const stored = await keysUnder(storage, 'cases');
    expect(stored).toHaveLength(1);
    caseFiles = new Map([[stored[0]!, sha256(scan)]]);
  });
  afterAll(() => t?.close());

  it('deletes files no attachment refers to once past the grace period, and nothing else', async () => {
    const orphans = await putOrphans(storage, 5);
    await storage.put('users/1/avatar-90.png', Buffer.from('not a case file'), 'image/png');
    await clockPastWrites();

    expect(await sweepOrphanedCaseFiles({ db: t.app.db, storage }, { graceSeconds: hour })).toBe(0);
    expect(await keysUnder(storage, 'cases')).toEqual([...caseFiles.keys(), ...orphans].sort());

    expect(await sweepOrphanedCaseFiles({ db: t.app.db, storage }, { graceSeconds: 0 })).toBe(orphans.length);
    expect(await keysUnder(storage, 'cases')).toEqual([...caseFiles.keys()]);
    expect(await keysUnder(storage, 'users')).toEqual(['users/1/avatar-90.png']);
    for (const [key, hash] of caseFiles) {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks))).toBe(hash);
    }
  });

  it('finds nothing to sweep when every file belongs to a case', async () => {
    expect(await sweepOrphanedCaseFiles({ db: t.app.db, storage }, { graceSeconds: 0 })).toBe(0);
  });

  it('keeps a recent orphan (an upload perhaps still running elsewhere) and sweeps an older one', async () => {
    const [older] = await putOrphans(storage, 1);
    // S3 keeps LastModified to the second, so the ages differ by more than the 2 s grace.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const [recent] = await putOrphans(storage, 1);
    expect(await sweepOrphanedCaseFiles({ db: t.app.db, storage }, { graceSeconds: 2 })).toBe(1);
    expect(await keysUnder(storage, 'cases')).toEqual([...caseFiles.keys(), recent].sort());
    expect(await storage.stat(older!)).toBeNull();
  });

  it("sweeps a message upload's leftovers and keeps the files of the messages written", async () => {
    // What the tests before left is swept first, so the count below is this test's own.
    await sweepOrphanedCaseFiles({ db: t.app.db, storage }, { graceSeconds: 0 });
    const doctor = await createCaseDoctor(t);
    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    const caseId = submitted.json<{ CaseId: number }>().CaseId;
    const scan = binaryStl(20);
    const written = await t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: caseForm({ text: 'scan' }, { files: { data: scan, name: 'upper.stl' } }),
    });
    expect(written.statusCode, written.body).toBe(200);
    const [kept] = await keysUnder(storage, 'messages');
    const leftovers = [`messages/${randomUUID()}/${randomBytes(12).toString('hex')}`];
    for (const key of leftovers) await storage.put(key, randomBytes(100), 'application/octet-stream');
    await clockPastWrites();

    expect(await sweepOrphanedCaseFiles({ db: t.app.db, storage }, { graceSeconds: 0 })).toBe(leftovers.length);
    expect(await keysUnder(storage, 'messages')).toEqual([kept]);
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(kept!)) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(scan));
  });
});
