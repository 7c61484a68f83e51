import type { CaseDetail, CaseTimelineEntry } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asciiStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  snapshot,
  storedCaseFiles,
  submitCase,
} from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Orders from a case: POST /case/add with parentCaseId and orderType (docs/decisions/cases.md § Orders from a case). */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let parent: { CaseId: number; TrackingNo: string };

async function submitted(token: string, fields: Record<string, string | number | boolean>) {
  const response = await submitCase(t, token, caseForm(fields));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ CaseId: number; TrackingNo: string }>();
}

const detail = async (token: string, caseId: number) =>
  (await t.as(token, { method: 'GET', url: `/api/case/${caseId}` })).json<CaseDetail>();
const timeline = async (token: string, caseId: number) =>
  (await t.as(token, { method: 'GET', url: `/api/case/${caseId}/timeline` })).json<CaseTimelineEntry[]>();

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  staff = await createStaff(t, [1, 6]);
  parent = await submitted(doctor.token, caseFields(doctor.clinicId, { firstname: 'Ada' }));
});
afterAll(() => t.close());

describe('POST /case/add with a parent case', () => {
  it("makes the doctor's refinement of their own case, shown with its parent and type", async () => {
    const child = await submitted(
      doctor.token,
      caseFields(doctor.clinicId, { parentCaseId: parent.CaseId, orderType: 'Refinement' }),
    );
    const shown = await detail(doctor.token, child.CaseId);
    expect(shown).toMatchObject({
      parentCaseId: parent.CaseId,
      parentTrackingNo: parent.TrackingNo,
      orderType: 'Refinement',
      orders: [],
    });
    const parentShown = await detail(doctor.token, parent.CaseId);
    expect(parentShown).toMatchObject({ parentCaseId: null, parentTrackingNo: null, orderType: null });
    expect(parentShown.orders).toContainEqual({
      caseId: child.CaseId,
      trackingNo: child.TrackingNo,
      orderType: 'Refinement',
      createdAt: shown.CreatedAt,
    });
  });

  it('allows an order of an order (a refinement of a refinement)', async () => {
    const first = await submitted(
      doctor.token,
      caseFields(doctor.clinicId, { parentCaseId: parent.CaseId, orderType: 'Refinement' }),
    );
    const second = await submitted(
      doctor.token,
      caseFields(doctor.clinicId, { parentCaseId: first.CaseId, orderType: 'Retainer' }),
    );
    expect(await detail(doctor.token, second.CaseId)).toMatchObject({
      parentCaseId: first.CaseId,
      orderType: 'Retainer',
    });
    expect((await detail(doctor.token, first.CaseId)).orders.map((order) => order.caseId)).toEqual([second.CaseId]);
  });

  it('is 400 unless the parent and the order type come together, and a refused order stores nothing', async () => {
    const before = await snapshot(t);
    for (const [fields, fieldErrors] of [
      [{ parentCaseId: parent.CaseId }, { orderType: 'Parent case and order type go together' }],
      [{ orderType: 'Retainer' }, { parentCaseId: 'Parent case and order type go together' }],
      [{ parentCaseId: parent.CaseId, orderType: 'Upgrade' }, { orderType: 'Order type is not valid' }],
      [{ parentCaseId: 'abc', orderType: 'Retainer' }, { parentCaseId: 'Parent case is not valid' }],
    ] as const) {
      const response = await submitCase(
        t,
        doctor.token,
        caseForm(caseFields(doctor.clinicId, fields), { maxillaryScan: { data: asciiStl(), name: 'upper.stl' } }),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toEqual(fieldErrors);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it("is 400 for another doctor's case or an unknown one as the parent, alike, storing nothing", async () => {
    const before = await snapshot(t);
    for (const parentCaseId of [parent.CaseId, 999999]) {
      const response = await submitCase(
        t,
        other.token,
        caseForm(caseFields(other.clinicId, { parentCaseId, orderType: 'Replacement' }), {
          maxillaryScan: { data: asciiStl(), name: 'upper.stl' },
        }),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        message: 'Parent case is not valid',
        fieldErrors: { parentCaseId: 'Parent case is not valid' },
      });
    }
    expect(await snapshot(t)).toEqual(before);
    expect((await storedCaseFiles(t)).length).toBe(before.files);
  });

  it("lets staff with the Add Case page order for the parent's doctor, and only for that doctor", async () => {
    const order = await submitted(
      staff.token,
      caseFields(doctor.clinicId, { userId: doctor.userId, parentCaseId: parent.CaseId, orderType: 'Retainer' }),
    );
    expect(await detail(doctor.token, order.CaseId)).toMatchObject({
      DoctorUserId: doctor.userId,
      parentCaseId: parent.CaseId,
      orderType: 'Retainer',
    });

    const before = await snapshot(t);
    const wrongDoctor = await submitCase(
      t,
      staff.token,
      caseForm(
        caseFields(other.clinicId, { userId: other.userId, parentCaseId: parent.CaseId, orderType: 'Retainer' }),
      ),
    );
    expect(wrongDoctor.statusCode, wrongDoctor.body).toBe(400);
    expect(wrongDoctor.json().fieldErrors).toEqual({ userId: "An order is for the parent case's doctor" });
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('GET /case/{caseId} and its timeline with orders', () => {
  it("link both ways: the child's creation names its parent, the parent's timeline the order", async () => {
    const fresh = await submitted(doctor.token, caseFields(doctor.clinicId));
    const child = await submitted(
      staff.token,
      caseFields(doctor.clinicId, { userId: doctor.userId, parentCaseId: fresh.CaseId, orderType: 'Replacement' }),
    );
    const childCreated = (await timeline(doctor.token, child.CaseId)).find((entry) => entry.kind === 'created');
    expect(childCreated).toMatchObject({
      trackingNo: child.TrackingNo,
      by: staff.userId,
      parent: { caseId: fresh.CaseId, trackingNo: fresh.TrackingNo, orderType: 'Replacement' },
    });

    const parentTimeline = await timeline(doctor.token, fresh.CaseId);
    expect(parentTimeline.find((entry) => entry.kind === 'created')).toMatchObject({ parent: null });
    const ordered = parentTimeline.filter((entry) => entry.kind === 'order');
    expect(ordered).toEqual([
      {
        kind: 'order',
        at: childCreated!.at,
        by: staff.userId,
        byName: expect.any(String),
        caseId: child.CaseId,
        trackingNo: child.TrackingNo,
        orderType: 'Replacement',
      },
    ]);
    expect(parentTimeline.at(-1)).toEqual(ordered[0]);
    // Staff with the Dashboard page see the same both ways.
    expect((await detail(staff.token, fresh.CaseId)).orders.map((order) => order.caseId)).toEqual([child.CaseId]);
  });

  it('hides nothing it should not: another doctor sees neither the parent nor its orders, staff see every order', async () => {
    const shown = await detail(doctor.token, parent.CaseId);
    const ordersForStaff = (await detail(staff.token, parent.CaseId)).orders;
    expect(ordersForStaff).toEqual(shown.orders);
    expect(shown.orders.length).toBeGreaterThanOrEqual(3);
    expect((await t.as(other.token, { method: 'GET', url: `/api/case/${parent.CaseId}` })).statusCode).toBe(404);
    expect((await t.as(other.token, { method: 'GET', url: `/api/case/${parent.CaseId}/timeline` })).statusCode).toBe(
      404,
    );
    const child = shown.orders[0]!.caseId;
    expect((await t.as(other.token, { method: 'GET', url: `/api/case/${child}` })).statusCode).toBe(404);
    // Another doctor's own cases list none of these orders.
    const own = await submitted(other.token, caseFields(other.clinicId));
    expect((await detail(other.token, own.CaseId)).orders).toEqual([]);
  });
});
