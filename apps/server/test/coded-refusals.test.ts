import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

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
});
