import { caseFieldList, maxDraftsPerUser } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, caseDrafts } from '../src/db/schema.ts';
import {
  caseFields,
  caseForm,
  createCaseDoctor,
  everyFieldSample,
  snapshot,
  submitCase,
} from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** POST, GET, PUT and DELETE /case/drafts, and submitting a draft (docs/decisions/case-form.md § Drafts). */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let otherStaff: Awaited<ReturnType<typeof createStaff>>;
let dashboardOnly: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  staff = await createStaff(t, [6]);
  otherStaff = await createStaff(t, [6]);
  dashboardOnly = await createStaff(t, [1]);
});
afterAll(() => t.close());

const url = '/api/case/drafts';
type Saved = { draftId: number; updatedAt: string };
const create = (token: string | null, payload: unknown) =>
  t.as(token, { method: 'POST', url, payload: payload as object });
const save = (token: string | null, draftId: number, payload: unknown) =>
  t.as(token, { method: 'PUT', url: `${url}/${draftId}`, payload: payload as object });
const read = (token: string | null, draftId: number) => t.as(token, { method: 'GET', url: `${url}/${draftId}` });
const list = (token: string | null) => t.as(token, { method: 'GET', url });
const remove = (token: string | null, draftId: number) => t.as(token, { method: 'DELETE', url: `${url}/${draftId}` });

async function newDraft(token: string, payload: unknown = { fields: { firstname: 'Ada' } }): Promise<Saved> {
  const response = await create(token, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Saved>();
}

const draftCount = async (ownerUserId: number) =>
  (await t.app.db.select().from(caseDrafts).where(eq(caseDrafts.ownerUserId, ownerUserId))).length;

describe('POST /case/drafts', () => {
  it('keeps the fields typed so far and the step, drops upload ids that are no upload of the caller, and answers the draft id', async () => {
    const fields = { firstname: 'Ada', lastname: 'Lovelace', dob: '1990-12-10', arches: 'Upper', moveTooth: '3,14' };
    // Well-formed ids of no upload: kept uploads are tested in resumable-uploads.test.ts.
    const files = { maxillaryScan: 'upload_ABC-123', otherFiles: ['u1', 'u2'] };
    const response = await create(doctor.token, { fields, files, step: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const { draftId, updatedAt } = response.json<Saved>();
    expect(draftId).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(updatedAt))).toBe(false);

    const draft = await read(doctor.token, draftId);
    expect(draft.statusCode).toBe(200);
    expect(draft.json()).toMatchObject({
      draftId,
      patientName: 'Ada Lovelace',
      doctorUserId: doctor.userId,
      step: 1,
      fields,
      files: {},
      uploads: [],
    });
    await vi.waitFor(
      async () => {
        const rows = await t.app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'draft.create'), eq(auditLog.actorUserId, doctor.userId)));
        expect(rows.map((row) => row.target)).toContain(`draft:${draftId}`);
      },
      { timeout: scaled(5000), interval: 20 },
    );
  });

  it('keeps every field of the case field table as the form holds it', async () => {
    // A draft holds the form's strings; the sample has a value for every field, a new one too.
    const fields = Object.fromEntries(
      Object.entries(everyFieldSample(doctor.clinicId)).map(([name, value]) => [name, String(value)]),
    );
    expect(Object.keys(fields)).toEqual(caseFieldList.map((field) => field.sent));
    const { draftId } = await newDraft(doctor.token, { fields });
    expect((await read(doctor.token, draftId)).json()).toMatchObject({ fields });
  });

  it('keeps an empty form and drops blank values: a draft may be started before anything is typed', async () => {
    const { draftId } = await newDraft(doctor.token, { fields: { firstname: '', gender: null } });
    expect((await read(doctor.token, draftId)).json()).toMatchObject({
      fields: {},
      files: {},
      step: 0,
      patientName: '',
    });
  });

  it.each([
    ['a value its field refuses', { arches: 'Sideways' }, 'fields.arches', 'Arches To Treat is not valid'],
    ['a future birthday', { dob: '2999-01-01' }, 'fields.dob', 'Date Of Birth must be in the past'],
    [
      'a tooth out of range',
      { moveTooth: '3,40' },
      'fields.moveTooth',
      "Don't Move Tooth must list tooth numbers 1-32 separated by commas",
    ],
    [
      'a name too long',
      { firstname: 'x'.repeat(101) },
      'fields.firstname',
      'First Name must be at most 100 characters',
    ],
    ['a value that is not text', { firstname: 12 }, 'fields.firstname', 'First Name is not valid'],
    ['an unknown key', { firstname: 'Ada', isAdmin: 'yes' }, 'fields.isAdmin', 'This is not a field of the case form'],
  ])('refuses %s with 400 and the field named, keeping nothing', async (_, fields, key, message) => {
    const before = await draftCount(doctor.userId);
    const response = await create(doctor.token, { fields });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ fieldErrors: Record<string, string> }>().fieldErrors[key]).toBe(message);
    expect(await draftCount(doctor.userId)).toBe(before);
  });

  it('refuses malformed upload ids, unknown file fields and too many other files', async () => {
    for (const [files, key] of [
      [{ maxillaryScan: '../etc/passwd' }, 'files.maxillaryScan'],
      [{ maxillaryScan: 'x'.repeat(129) }, 'files.maxillaryScan'],
      [{ secretScan: 'abc' }, 'files.secretScan'],
      [{ otherFiles: Array.from({ length: 31 }, (_, index) => `u${index}`) }, 'files.otherFiles'],
    ] as const) {
      const response = await create(doctor.token, { fields: {}, files });
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json<{ fieldErrors: Record<string, string> }>().fieldErrors)).toContain(key);
    }
  });

  it('refuses a draft larger than 64 KB and a step that is not one of the form', async () => {
    const huge = await create(doctor.token, { fields: { moveTooth: Array(40_000).fill('1').join(',') } });
    expect(huge.statusCode, huge.body).toBe(400);
    expect(huge.json<{ message: string }>().message).toBe('A draft is at most 64 KB');
    const step = await create(doctor.token, { fields: {}, step: 3 });
    expect(step.statusCode).toBe(400);
    expect(step.json<{ fieldErrors: Record<string, string> }>().fieldErrors.step).toBe('Step is not valid');
  });

  it('keeps the doctor staff picked; a doctor cannot write a draft for another doctor', async () => {
    const forOther = await newDraft(staff.token, { fields: { firstname: 'Bo' }, doctorUserId: other.userId });
    expect((await read(staff.token, forOther.draftId)).json()).toMatchObject({ doctorUserId: other.userId });
    const noDoctorYet = await newDraft(staff.token, { fields: {} });
    expect((await read(staff.token, noDoctorYet.draftId)).json()).toMatchObject({ doctorUserId: null });
    const notADoctor = await create(staff.token, { fields: {}, doctorUserId: staff.userId });
    expect(notADoctor.statusCode).toBe(400);
    expect(notADoctor.json<{ fieldErrors: Record<string, string> }>().fieldErrors.doctorUserId).toBe(
      'Doctor is not valid',
    );
    const mine = await newDraft(doctor.token, { fields: {}, doctorUserId: other.userId });
    expect((await read(doctor.token, mine.draftId)).json()).toMatchObject({ doctorUserId: doctor.userId });
  });

  it(`refuses a draft past the cap of ${maxDraftsPerUser} per user with 409, while others still may`, async () => {
    const busy = await createCaseDoctor(t);
    for (let index = 0; index < maxDraftsPerUser; index++) await newDraft(busy.token, { fields: {} });
    const refused = await create(busy.token, { fields: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toMatch(/at most 50 drafts/);
    expect(await draftCount(busy.userId)).toBe(maxDraftsPerUser);
    await newDraft(other.token, { fields: {} });
  });

  it('answers 401 without a session and 403 to staff without the Add Case page', async () => {
    expect((await create(null, { fields: {} })).statusCode).toBe(401);
    expect((await list(null)).statusCode).toBe(401);
    expect((await create(dashboardOnly.token, { fields: {} })).statusCode).toBe(403);
    expect((await list(dashboardOnly.token)).statusCode).toBe(403);
  });
});

describe('GET /case/drafts', () => {
  it("lists the caller's own drafts only, the most recently saved first", async () => {
    const lister = await createCaseDoctor(t);
    const first = await newDraft(lister.token, { fields: { firstname: 'First' } });
    const second = await newDraft(lister.token, { fields: { firstname: 'Second', lastname: 'One' }, step: 2 });
    await newDraft(other.token, { fields: { firstname: 'Elsewhere' } });
    await save(lister.token, first.draftId, { fields: { firstname: 'First', lastname: 'Again' } });
    const response = await list(lister.token);
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ draftId: number; patientName: string; step: number }[]>();
    expect(rows.map((row) => [row.draftId, row.patientName, row.step])).toEqual([
      [first.draftId, 'First Again', 0],
      [second.draftId, 'Second One', 2],
    ]);
  });
});

describe('PUT /case/drafts/:draftId', () => {
  it('replaces the fields and files with what is sent and answers the new save time', async () => {
    const draft = await newDraft(doctor.token, {
      fields: { firstname: 'Ada', complaint: 'Gap' },
      files: { front: 'f1' },
    });
    const response = await save(doctor.token, draft.draftId, { fields: { lastname: 'Byron' }, step: 2 });
    expect(response.statusCode, response.body).toBe(200);
    expect(Date.parse(response.json<Saved>().updatedAt)).toBeGreaterThanOrEqual(Date.parse(draft.updatedAt));
    expect((await read(doctor.token, draft.draftId)).json()).toMatchObject({
      fields: { lastname: 'Byron' },
      files: {},
      step: 2,
    });
  });

  it('refuses bad fields with 400 and keeps what was saved before', async () => {
    const draft = await newDraft(doctor.token, { fields: { firstname: 'Kept' } });
    const response = await save(doctor.token, draft.draftId, { fields: { gender: 'Robot' } });
    expect(response.statusCode).toBe(400);
    expect((await read(doctor.token, draft.draftId)).json()).toMatchObject({ fields: { firstname: 'Kept' } });
  });

  it("answers 404 for another user's draft (doctor or staff) and for none, changing nothing", async () => {
    const draft = await newDraft(doctor.token, { fields: { firstname: 'Mine' } });
    const staffDraft = await newDraft(staff.token, { fields: { firstname: 'Ours' }, doctorUserId: doctor.userId });
    const attempts = [
      () => save(other.token, draft.draftId, { fields: { firstname: 'Theirs' } }),
      () => save(staff.token, draft.draftId, { fields: { firstname: 'Theirs' } }),
      // A draft staff write for a doctor is the staff user's, not the doctor's.
      () => save(doctor.token, staffDraft.draftId, { fields: { firstname: 'Theirs' } }),
      () => save(otherStaff.token, staffDraft.draftId, { fields: { firstname: 'Theirs' } }),
      () => read(other.token, draft.draftId),
      () => read(doctor.token, staffDraft.draftId),
      () => read(otherStaff.token, staffDraft.draftId),
      () => remove(other.token, draft.draftId),
      () => remove(doctor.token, staffDraft.draftId),
      () => save(doctor.token, 2147483647, { fields: {} }),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('Draft not found');
    }
    expect((await read(doctor.token, draft.draftId)).json()).toMatchObject({ fields: { firstname: 'Mine' } });
    expect((await read(staff.token, staffDraft.draftId)).json()).toMatchObject({ fields: { firstname: 'Ours' } });
    expect((await list(doctor.token)).json<{ draftId: number }[]>().map((row) => row.draftId)).not.toContain(
      staffDraft.draftId,
    );
  });
});

describe('DELETE /case/drafts/:draftId', () => {
  it('deletes an own draft, records it, and a second delete is 404', async () => {
    const draft = await newDraft(doctor.token);
    const response = await remove(doctor.token, draft.draftId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Draft deleted' });
    expect((await read(doctor.token, draft.draftId)).statusCode).toBe(404);
    expect((await remove(doctor.token, draft.draftId)).statusCode).toBe(404);
    await vi.waitFor(
      async () => {
        const rows = await t.app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'draft.delete'), eq(auditLog.target, `draft:${draft.draftId}`)));
        expect(rows.map((row) => row.outcome)).toContain('success');
      },
      { timeout: scaled(5000), interval: 20 },
    );
  });
});

describe('POST /case/add with draftId', () => {
  it('creates the case and deletes its draft together', async () => {
    const draft = await newDraft(doctor.token, { fields: { firstname: 'Pat' } });
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { draftId: draft.draftId })),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await read(doctor.token, draft.draftId)).statusCode).toBe(404);
  });

  it('keeps the draft when the submission is refused', async () => {
    const draft = await newDraft(doctor.token, { fields: { firstname: 'Pat' } });
    const before = await snapshot(t);
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { draftId: draft.draftId, arches: '' })),
    );
    expect(response.statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
    expect((await read(doctor.token, draft.draftId)).statusCode).toBe(200);
  });

  it("refuses another user's draft with 404 and creates no case", async () => {
    const theirs = await newDraft(other.token, { fields: { firstname: 'Pat' } });
    const staffs = await newDraft(staff.token, { fields: {}, doctorUserId: doctor.userId });
    for (const draftId of [theirs.draftId, staffs.draftId]) {
      const before = await snapshot(t);
      const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId, { draftId })));
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json<{ message: string }>().message).toBe('Draft not found');
      expect(await snapshot(t)).toEqual(before);
    }
    expect((await read(other.token, theirs.draftId)).statusCode).toBe(200);
  });

  it('lets staff submit their draft for a doctor, and refuses a draft id that is not a number', async () => {
    const draft = await newDraft(staff.token, { fields: {}, doctorUserId: doctor.userId });
    const response = await submitCase(
      t,
      staff.token,
      caseForm(caseFields(doctor.clinicId, { userId: doctor.userId, draftId: draft.draftId })),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await read(staff.token, draft.draftId)).statusCode).toBe(404);
    const bad = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId, { draftId: 'abc' })));
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fieldErrors: Record<string, string> }>().fieldErrors.draftId).toBe('Draft is not valid');
  });
});
