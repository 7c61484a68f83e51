import { caseFieldList } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asciiStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, makeImage } from './helpers/factories.ts';
import { approvedPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** One case's page (GET /case/{caseId}), its timeline, and the status workflow's rules. */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  other = await createCaseDoctor(t);
  staff = await createStaff(t, [1]);
  admin = await t.adminToken();
});
afterAll(() => t.close());

async function newCase(): Promise<{ CaseId: number; TrackingNo: string }> {
  const form = caseForm(caseFields(doctor.clinicId, { firstname: 'Ada', lastname: 'Lovelace' }), {
    maxillaryScan: { data: asciiStl(), name: 'upper.stl' },
    front: { data: await makeImage(), name: 'front.png', type: 'image/png' },
  });
  const response = await submitCase(t, doctor.token, form);
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json();
}

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const setStatus = (token: string, caseId: number, payload: Record<string, unknown>) =>
  t.as(token, { method: 'PUT', url: `/api/case/status/${caseId}`, payload });

describe('GET /case/{caseId}', () => {
  it('answers the case as its list row does, with the placeholders of plans and refinements', async () => {
    const { CaseId, TrackingNo } = await newCase();
    const response = await get(doctor.token, `/api/case/${CaseId}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<Record<string, unknown>>();
    const [row] = (await get(doctor.token, `/api/case/get_cases_by_status/all/0?search=${TrackingNo}`)).json<
      Record<string, unknown>[]
    >();
    expect(detail).toEqual({
      ...row,
      planState: null,
      parentCaseId: null,
      parentTrackingNo: null,
      orderType: null,
      orders: [],
    });
    for (const field of caseFieldList) expect(detail).toHaveProperty(field.read);
    expect(detail).toMatchObject({ CaseId, TrackingNo, FirstName: 'Ada', doctorname: 'Grace Hopper', Status: 'new' });
    expect((await get(staff.token, `/api/case/${CaseId}`)).statusCode).toBe(200);
    expect((await get(admin, `/api/case/${CaseId}`)).statusCode).toBe(200);
  });

  it("is 404 for another doctor's case and an unknown one, 403 for staff without the Dashboard page", async () => {
    const { CaseId } = await newCase();
    const refused = await get(other.token, `/api/case/${CaseId}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Case not found');
    expect((await get(other.token, `/api/case/${CaseId}/timeline`)).statusCode).toBe(404);
    expect((await get(admin, '/api/case/999999')).statusCode).toBe(404);
    expect((await get(admin, '/api/case/999999/timeline')).statusCode).toBe(404);
    const addCaseOnly = await createStaff(t, [6]);
    expect((await get(addCaseOnly.token, `/api/case/${CaseId}`)).statusCode).toBe(403);
    expect((await get(addCaseOnly.token, `/api/case/${CaseId}/timeline`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/case/${CaseId}` })).statusCode).toBe(401);
    expect((await get(admin, '/api/case/abc')).statusCode).toBe(400);
  });
});

describe('GET /case/{caseId}/timeline and the status rules', () => {
  it('lists the submission, its files and each change oldest first, with what each change carried', async () => {
    const { CaseId, TrackingNo } = await newCase();
    expect(
      (await setStatus(staff.token, CaseId, { status: 'inprogress', note: '  Scans look good ' })).statusCode,
    ).toBe(200);
    // Dispatch needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
    const plan = await approvedPlan(t, staff.token, doctor.token, CaseId);
    const dispatched = await setStatus(admin, CaseId, {
      status: 'dispatched',
      courier: 'DHL Express',
      trackingNumber: 'JD0146000',
    });
    expect(dispatched.statusCode, dispatched.body).toBe(200);
    const back = await setStatus(staff.token, CaseId, { status: 'inprogress', reason: 'Returned: wrong address' });
    expect(back.statusCode, back.body).toBe(200);

    const response = await get(doctor.token, `/api/case/${CaseId}/timeline`);
    expect(response.statusCode, response.body).toBe(200);
    const timeline = response.json<{ kind: string; at: string }[]>();
    expect(timeline).toEqual([
      {
        kind: 'created',
        at: expect.any(String),
        by: doctor.userId,
        byName: 'Grace Hopper',
        trackingNo: TrackingNo,
        parent: null,
      },
      {
        kind: 'files',
        at: timeline[0]!.at,
        files: [
          { FileName: 'upper.stl', FileType: 'MaxillaryScan' },
          { FileName: 'front.png', FileType: 'Front' },
        ],
      },
      {
        kind: 'status',
        at: expect.any(String),
        by: staff.userId,
        byName: 'Sam Staff',
        from: 'new',
        to: 'inprogress',
        note: 'Scans look good',
        reason: null,
        courier: null,
        trackingNumber: null,
      },
      { kind: 'plan', at: expect.any(String), by: staff.userId, byName: 'Sam Staff', planId: plan.planId, version: 1 },
      {
        kind: 'plan_decision',
        at: expect.any(String),
        by: doctor.userId,
        byName: 'Grace Hopper',
        planId: plan.planId,
        version: 1,
        decision: 'approved',
        comment: null,
        pinned: [],
      },
      expect.objectContaining({
        from: 'inprogress',
        to: 'dispatched',
        courier: 'DHL Express',
        trackingNumber: 'JD0146000',
      }),
      expect.objectContaining({ from: 'dispatched', to: 'inprogress', reason: 'Returned: wrong address', note: null }),
    ]);
    const times = timeline.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect((await get(staff.token, `/api/case/${CaseId}/timeline`)).json()).toEqual(timeline);
  });

  it('refuses going back without a reason (blank counts as none), and changes nothing', async () => {
    const { CaseId } = await newCase();
    expect((await setStatus(staff.token, CaseId, { status: 'inprogress' })).statusCode).toBe(200);
    for (const reason of [undefined, '', '   ']) {
      const refused = await setStatus(staff.token, CaseId, { status: 'new', reason });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        message: 'A reason is required to move a case back',
        fieldErrors: { reason: 'A reason is required to move a case back' },
      });
    }
    const detail = await get(staff.token, `/api/case/${CaseId}`);
    expect(detail.json().Status).toBe('inprogress');
    expect((await get(staff.token, `/api/case/${CaseId}/timeline`)).json()).toHaveLength(3);
    expect((await setStatus(staff.token, CaseId, { status: 'new', reason: 'Scans must be redone' })).statusCode).toBe(
      200,
    );
  });

  it('refuses dispatching without courier and tracking number, naming each field', async () => {
    const { CaseId } = await newCase();
    const none = await setStatus(staff.token, CaseId, { status: 'dispatched', courier: ' ' });
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors).toEqual({
      courier: 'Courier is required for a dispatched case',
      trackingNumber: 'Tracking number is required for a dispatched case',
    });
    const half = await setStatus(staff.token, CaseId, { status: 'dispatched', courier: 'UPS' });
    expect(half.json().fieldErrors).toEqual({ trackingNumber: 'Tracking number is required for a dispatched case' });
    expect((await get(staff.token, `/api/case/${CaseId}`)).json().Status).toBe('new');
  });

  it('lets a case skip forward, keeps the 409 for the same status, and ignores shipping fields off dispatch', async () => {
    const { CaseId } = await newCase();
    // Leaving the lab needs the doctor's approved plan (cases-status.test.ts).
    await approvedPlan(t, staff.token, doctor.token, CaseId);
    const skipped = await setStatus(staff.token, CaseId, { status: 'delivered', courier: 'UPS', trackingNumber: 'X' });
    expect(skipped.statusCode, skipped.body).toBe(200);
    const same = await setStatus(staff.token, CaseId, { status: 'delivered' });
    expect(same.statusCode).toBe(409);
    const timeline = (await get(doctor.token, `/api/case/${CaseId}/timeline`)).json<Record<string, unknown>[]>();
    const change = timeline.find((entry) => entry.kind === 'status');
    expect(change).toMatchObject({ from: 'new', to: 'delivered', courier: null, trackingNumber: null, reason: null });
    const tooLong = await setStatus(staff.token, CaseId, { status: 'new', reason: 'x'.repeat(1001) });
    expect(tooLong.json().fieldErrors).toEqual({ reason: 'Reason is at most 1000 characters' });
  });
});
