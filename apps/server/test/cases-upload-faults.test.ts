import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from '../src/auth/policy.ts';
import { createCase } from '../src/services/cases/create-case.ts';
import { displayFileName, isFileOfKind } from '../src/services/cases/file-checks.ts';
import { makeTrackingNo, trackingNoPattern } from '../src/services/cases/tracking-number.ts';
import {
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  sha256,
  snapshot,
  submitCase,
} from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
});
afterAll(() => t.close());

describe('concurrent submissions', () => {
  it('stores 20 cases at once with unique tracking numbers and intact files', async () => {
    const before = await snapshot(t);
    const uploads = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => ({
        scan: binaryStl(100 + index),
        photo: await makeImage('jpeg', 30 + index),
      })),
    );
    const responses = await Promise.all(
      uploads.map((upload) =>
        submitCase(
          t,
          doctor.token,
          caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
            maxillaryScan: { data: upload.scan, name: 'upper.stl' },
            frontal: { data: upload.photo, name: 'frontal.jpg' },
          }),
        ),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const trackingNos = responses.map((response) => response.json<{ TrackingNo: string }>().TrackingNo);
    expect(new Set(trackingNos).size).toBe(20);
    const after = await snapshot(t);
    expect(after.rows.cases - before.rows.cases).toBe(20);
    expect(after.rows.attachments - before.rows.attachments).toBe(40);
    expect(after.files - before.files).toBe(40);
    let hashesEqual = 0;
    for (const [index, response] of responses.entries()) {
      const { CaseId } = response.json<{ CaseId: number }>();
      const attachments = await t.as(doctor.token, {
        method: 'GET',
        url: `/api/case/get_cases_attachments_by_case_id/${CaseId}`,
      });
      const rows = attachments.json<{ FileType: string; Sha256: string; FilePath: string }[]>();
      expect(rows.find((row) => row.FileType === 'MaxillaryScan')!.Sha256).toBe(sha256(uploads[index]!.scan));
      expect(rows.find((row) => row.FileType === 'Frontal')!.Sha256).toBe(sha256(uploads[index]!.photo));
      for (const row of rows) {
        const download = await t.as(doctor.token, { method: 'GET', url: row.FilePath });
        expect(sha256(download.rawPayload)).toBe(row.Sha256);
        hashesEqual++;
      }
    }
    const serverErrors = responses.filter((response) => response.statusCode >= 500).length;
    console.log(
      `[figure] concurrent submissions: ${responses.length} at once, ${after.rows.cases - before.rows.cases} rows, ` +
        `${new Set(trackingNos).size} unique tracking numbers, ${hashesEqual} of ${after.files - before.files} ` +
        `stored files downloaded with the SHA-256 sent, ${serverErrors} 5xx`,
    );
  });
});

describe('tracking numbers', () => {
  it('are readable: prefix, year and month, six unambiguous characters', () => {
    const made = makeTrackingNo(new Date('2026-11-03T10:00:00Z'));
    expect(made).toMatch(/^AL-2611-[2-9A-HJKMNP-TV-Z]{6}$/);
    expect(made).toMatch(trackingNoPattern);
  });

  it('are retried with a fresh number when one is already taken', async () => {
    const actor: SignedInUser = {
      userId: doctor.userId,
      doctorId: doctor.doctorId,
      roleId: 19,
      userType: 'Doctor',
      servedDoctors: [{ userId: doctor.userId, doctorId: doctor.doctorId }],
      pages: new Set(),
      jti: 'test',
      exp: 0,
    };
    const { db, storage, jobs, outbox } = t.app;
    const deps = { db, storage, jobs, outbox, publicUrl: t.app.config.publicUrl };
    const upload = () => ({
      fields: Object.fromEntries(Object.entries(caseFields(doctor.clinicId)).map(([k, v]) => [k, String(v)])),
      files: [],
      fileErrors: {},
    });
    const first = await createCase({ ...deps, makeTrackingNo: () => 'AL-2601-AAAAAA' }, actor, upload());
    expect(first.trackingNo).toBe('AL-2601-AAAAAA');
    const numbers = ['AL-2601-AAAAAA', 'AL-2601-AAAAAA', 'AL-2601-BBBBBB'];
    const second = await createCase({ ...deps, makeTrackingNo: () => numbers.shift()! }, actor, upload());
    expect(second.trackingNo).toBe('AL-2601-BBBBBB');
  });
});

describe('file checks', () => {
  it('tells a binary STL by its triangle count and an ASCII one by its text', () => {
    const stl = binaryStl(3);
    expect(isFileOfKind('stl', stl.subarray(0, 512), stl.length)).toBe(true);
    expect(isFileOfKind('stl', stl.subarray(0, 512), stl.length + 1)).toBe(false);
    expect(isFileOfKind('stl', Buffer.from('solid x\nfacet'), 13)).toBe(true);
    expect(isFileOfKind('stl', Buffer.from('solid\x00\x01\x02'), 8)).toBe(false);
  });

  it('keeps only a display name: no folders, no control characters', () => {
    expect(displayFileName('C:\\Users\\me\\scan.stl')).toBe('scan.stl');
    expect(displayFileName('../../etc/passwd')).toBe('passwd');
    expect(displayFileName('a\u0000b"c.png')).toBe('a_b_c.png');
    expect(displayFileName('...')).toBe('file');
  });
});
