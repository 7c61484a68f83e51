import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { planArchStages } from './helpers/dental-meshes.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { AppError } from '../src/lib/errors.ts';
import { createDerivativePool } from '../src/meshes/derivative-pool.ts';

/**
 * Refusals the server puts together at run time answer their code and values beside the
 * English text they always had (issue 43; packages/contract/src/server-messages.ts), so that
 * the web app shows them in the reader's language.
 */
let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let caseId: number;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Barbara', lastname: 'McClintock' });
  staff = await createStaff(t, [1]);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  caseId = created.json<{ CaseId: number }>().CaseId;
});
afterAll(() => t.close());

describe('a coded refusal', () => {
  it('answers "not found" with its code, the word it names and the unchanged English', async () => {
    const response = await t.as(doctor.token, { method: 'GET', url: '/api/case/2147483000' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
  });

  it('answers a conflict with its code, its values and its field errors', async () => {
    const moved = await t.as(staff.token, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'inprogress' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const again = await t.as(staff.token, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'inprogress' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'The case is already In Progress',
      code: 'caseAlreadyInStatus',
      params: { status: 'In Progress' },
      fieldErrors: { status: 'Unchanged' },
    });
  });

  it('leaves a refusal of fixed words without a code', async () => {
    const response = await t.as(doctor.token, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'inprogress' },
    });
    expect(response.statusCode).toBe(403);
    expect(Object.keys(response.json())).toEqual(['message']);
  });

  it('answers an address no route serves with its code and values', async () => {
    const response = await t.as(doctor.token, { method: 'GET', url: '/api/no-such-route?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'Route GET /api/no-such-route not found',
      code: 'routeNotFound',
      params: { method: 'GET', path: '/api/no-such-route' },
    });
  });

  it('answers a role still held with its code', async () => {
    const staff = await createStaff(t, []);
    const refused = await t.as(await t.adminToken(), { method: 'DELETE', url: `/api/role/delete/${staff.roleId}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'This role is assigned to 1 user and cannot be deleted',
      code: 'roleAssignedToOneUser',
      params: {},
    });
  });
});

describe('a coded refusal made while reading a file', () => {
  it("answers a ZIP that cannot be read with its code and the reader's own reason as a value", async () => {
    const response = await uploadPlan(
      t,
      staff.token,
      caseId,
      planForm(planSummaryOf(1, 0), [{ name: 'plan.zip', data: Buffer.from('PK\x03\x04 not really') }]),
    );
    expect(response.statusCode, response.body).toBe(400);
    // The detail is yauzl's English, passed on as it is.
    const detail = 'End of central directory record signature not found. Either not a zip file, or file is truncated.';
    expect(response.json()).toEqual({
      message: `The ZIP cannot be read: ${detail}`,
      code: 'zipUnreadable',
      params: { detail },
    });
  });

  it('keeps the code and values of a refusal made in a worker thread, and its English unchanged', async () => {
    const pool = createDerivativePool();
    try {
      const letter = pool.convert(Buffer.from('solid letter\nDear doctor,\n'));
      await expect(letter).rejects.toBeInstanceOf(AppError);
      await expect(letter).rejects.toMatchObject({
        status: 400,
        message: 'not a valid STL file: expected "facet" or "endsolid" at byte 13',
        code: 'stlExpectedFacet',
        params: { byte: 13 },
      });
      const truncated = pool.convert(Buffer.from('solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n'));
      await expect(truncated).rejects.toMatchObject({
        message: 'not a valid STL file: expected a number at byte 49',
        code: 'stlExpectedNumber',
        params: { byte: 49 },
      });

      // Two teeth of 80 triangles at stage 0; a later stage of 90-triangle teeth is not the same shells.
      const [stageZero] = planArchStages('upper', { teeth: 2, stages: 0, trianglesPerTooth: 80 });
      const [otherTeeth] = planArchStages('upper', { teeth: 2, stages: 0, trianglesPerTooth: 90 });
      const triangles = (stl: Uint8Array) => new DataView(stl.buffer, stl.byteOffset).getUint32(80, true);
      const [baseTriangles, stageTriangles] = [triangles(stageZero!), triangles(otherTeeth!)];
      expect(stageTriangles).not.toBe(baseTriangles);
      const base = await pool.planBase(stageZero!);
      await expect(pool.planStageMotion(otherTeeth!, base)).rejects.toMatchObject({
        status: 400,
        message: `the stages are not the same shells moved: a stage has ${stageTriangles} triangles, stage 0 has ${baseTriangles}`,
        code: 'planStageTriangles',
        params: { triangles: stageTriangles, stageZeroTriangles: baseTriangles },
      });
    } finally {
      await pool.close();
    }
  });
});
