import {
  caseAssigneeEvent,
  caseMessageEvent,
  casePlanEvent,
  caseProgressScanEvent,
  caseStatusEvent,
  type CaseRow,
} from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { openEventStream, type EventStreamReader, type StreamedEvent } from './helpers/event-stream.ts';
import { createAssistant, createStaff, formData } from './helpers/factories.ts';
import { approvedPlan, planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Issue 40, security 4 (docs/decisions/invitations-events-files.md § Live events and the REST
 * view): every case event a stream carries says nothing its user's own REST answers do not
 * show them, for the doctor, their assistant and Dashboard staff, for each kind of event.
 */
let t: TestApp;
let base: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let assistant: Awaited<ReturnType<typeof createAssistant>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let technician: Awaited<ReturnType<typeof createStaff>>;
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  t = await createTestApp({ events: { heartbeatMs: 500, sessionCheckMs: 1000 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  doctor = await createCaseDoctor(t);
  assistant = await createAssistant(t, doctor.token);
  staff = await createStaff(t, [1]);
  technician = await createStaff(t, [1]);
}, scaled(60_000));
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t?.close();
});

const get = async <T>(token: string, url: string) => {
  const response = await t.as(token, { method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
};

/** The keys each kind's data may have: exactly its contract schema's, nothing added on the way. */
const schemaKeys: Record<string, string[]> = {
  'case.status': Object.keys(caseStatusEvent.shape),
  'case.message': Object.keys(caseMessageEvent.shape),
  'case.plan': Object.keys(casePlanEvent.shape),
  'case.assignee': Object.keys(caseAssigneeEvent.shape),
  'case.progressScan': Object.keys(caseProgressScanEvent.shape),
};

/** What `token`'s REST answers say about the thing `event` names, in the event's own terms. */
async function restViewOf(token: string, event: StreamedEvent): Promise<Record<string, unknown>> {
  const data = event.data as { caseId: number; messageId?: number; planId?: number; at: string };
  const row = await get<CaseRow>(token, `/api/case/${data.caseId}`);
  switch (event.type) {
    case 'case.status':
      return { caseId: row.CaseId, status: row.Status, at: data.at };
    case 'case.assignee':
      return { caseId: row.CaseId, assigneeUserId: row.AssigneeUserId, at: data.at };
    case 'case.message': {
      const messages = await get<{ messageId: number; side: string; at: string }[]>(
        token,
        `/api/case/${data.caseId}/messages`,
      );
      const message = messages.find((one) => one.messageId === data.messageId);
      return { caseId: row.CaseId, messageId: message?.messageId, side: message?.side, at: data.at };
    }
    case 'case.plan': {
      const plans = await get<{ planId: number; version: number; state: string }[]>(
        token,
        `/api/case/${data.caseId}/plans`,
      );
      const plan = plans.find((one) => one.planId === data.planId);
      return { caseId: row.CaseId, planId: plan?.planId, version: plan?.version, state: plan?.state, at: data.at };
    }
    case 'case.progressScan': {
      const scans = await get<{ progressScanId: number; state: string }[]>(
        token,
        `/api/case/${data.caseId}/progress-scans`,
      );
      const scan = scans.find((one) => one.progressScanId === (data as { progressScanId?: number }).progressScanId);
      return { caseId: row.CaseId, progressScanId: scan?.progressScanId, state: scan?.state, at: data.at };
    }
    default:
      throw new Error(`an event kind this test does not know yet: ${event.type}; add its REST view here`);
  }
}

describe('live events follow the REST view of the user whose stream carries them', () => {
  it('for the doctor, their assistant and Dashboard staff, each kind of case event', async () => {
    const audiences = [
      { name: 'doctor', token: doctor.token },
      { name: 'assistant', token: assistant.token },
      { name: 'staff', token: staff.token },
    ];
    const opened = await Promise.all(
      audiences.map(async (audience) => ({
        ...audience,
        stream: await openEventStream(`${base}/api/events`, { authorization: `Bearer ${audience.token}` }),
      })),
    );
    streams.push(...opened.map((audience) => audience.stream));

    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { CaseId } = submitted.json<{ CaseId: number }>();
    const changes = [
      () =>
        t.as(staff.token, {
          method: 'PUT',
          url: `/api/case/${CaseId}/assignee`,
          payload: { userId: technician.userId },
        }),
      () => t.as(staff.token, { method: 'PUT', url: `/api/case/status/${CaseId}`, payload: { status: 'inprogress' } }),
      () =>
        t.as(staff.token, {
          method: 'POST',
          url: `/api/case/${CaseId}/messages`,
          payload: formData({ text: 'From the lab' }),
        }),
      () => uploadPlan(t, staff.token, CaseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1))),
    ];
    for (const change of changes) {
      const response = await change();
      expect(response.statusCode, response.body).toBe(200);
    }
    // A progress scan, sent against an approved version (of a case of its own: the plan events above stay as they were).
    const progressCase = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    const ProgressCaseId = progressCase.json<{ CaseId: number }>().CaseId;
    await approvedPlan(t, staff.token, doctor.token, ProgressCaseId);
    const scan = new FormData();
    scan.append('stage', '1');
    scan.append('upper', new Blob([new Uint8Array(stageFiles(1, 1)[1]!.data)]), 'upper.stl');
    const sent = await t.as(staff.token, {
      method: 'POST',
      url: `/api/case/${ProgressCaseId}/progress-scans`,
      payload: scan,
    });
    expect(sent.statusCode, sent.body).toBe(202);

    for (const { name, token, stream } of opened) {
      for (const type of Object.keys(schemaKeys)) {
        const event = await stream.waitFor(
          (heard) =>
            heard.type === type &&
            (heard.data as { caseId: number }).caseId === (type === 'case.progressScan' ? ProgressCaseId : CaseId),
        );
        expect(Object.keys(event.data as object).sort(), `${name} ${type}`).toEqual([...schemaKeys[type]!].sort());
        expect(event.data, `${name} ${type}`).toEqual(await restViewOf(token, event));
      }
    }
  });
});
