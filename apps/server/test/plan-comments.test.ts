import type { PlanComment } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planComments, users } from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, planArchTeeth } from './helpers/dental-meshes.ts';
import { openEventStream, type EventStreamReader, type StreamedEvent } from './helpers/event-stream.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/plans-and-meshes.md, Comments pinned to the model (issue 23): the case's doctor pins
 * comments to a point of the version awaiting approval at a stage, each given its nearest
 * tooth; they are the doctor's drafts until a change request sends them to the lab, which
 * marks them resolved; every other caller is refused as for the plan itself.
 */

let t: TestApp;
let base: string;
const streams: EventStreamReader[] = [];
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let lab: { token: string };
let caseId: number;
let planId: number;
const options = { teeth: 14, trianglesPerTooth: 300, seed: 4, stages: 3 };

const stageNames = (arch: string, stls: Uint8Array[]): UploadFile[] =>
  stls.map((data, stage) => ({ name: `${arch}_${String(stage).padStart(2, '0')}.stl`, data: Buffer.from(data) }));

const commentsUrl = (plan = planId) => `/api/case/${caseId}/plans/${plan}/comments`;
const list = (token: string, plan = planId) => t.as(token, { method: 'GET', url: commentsUrl(plan) });
const add = (token: string, payload: object, plan = planId) =>
  t.as(token, { method: 'POST', url: commentsUrl(plan), payload });

beforeAll(async () => {
  t = await createTestApp({ events: { heartbeatMs: 500, sessionCheckMs: 1000 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  lab = await createStaff(t, [1]);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  caseId = created.json<{ CaseId: number }>().CaseId;
  const files = [
    ...stageNames('upper', [...planArchStages('upper', options)]),
    ...stageNames('lower', [...planArchStages('lower', options)]),
  ];
  const uploaded = await uploadPlan(t, admin, caseId, planForm(planSummaryOf(3, 3), files));
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  planId = uploaded.json<{ planId: number }>().planId;
  // The teeth are measured with the viewer's copy: a pin is given the nearest one.
  await t.app.jobs.runDue();
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t?.close();
});

const openStream = async (token: string) => {
  const reader = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${token}` });
  streams.push(reader);
  return reader;
};
/** The `case.plan` events of this version a stream has received. */
const planEvents = (reader: EventStreamReader) =>
  reader.events.filter(
    (event: StreamedEvent) => event.type === 'case.plan' && (event.data as { planId: number }).planId === planId,
  );

describe('comments pinned to a plan version', () => {
  it("are the case doctor's, on a point at a stage, each given the nearest tooth at that stage", async () => {
    const canine = planArchTeeth('upper', options).find((tooth) => tooth.universal === 11)!;
    // A point on the crown's side, 2 mm off the tooth's centre at stage 2.
    const point = canine.centroids[2]!.map((value, axis) => value + (axis === 0 ? 2 : 0));
    const answer = await add(doctor.token, { stage: 2, arch: 'upper', point, text: '  Less torque on this canine  ' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      planId,
      number: 1,
      stage: 2,
      arch: 'upper',
      point,
      tooth: 11,
      text: 'Less torque on this canine',
      author: 'Ada Lovelace',
      sentAt: null,
      resolvedAt: null,
      resolvedBy: null,
    });
    const second = await add(doctor.token, { stage: 0, arch: 'lower', point: [0, 0, 0], text: 'Check the midline' });
    expect(second.json()).toMatchObject({ number: 2, arch: 'lower' });
    expect((await list(doctor.token)).json<PlanComment[]>().map((comment) => comment.number)).toEqual([1, 2]);
  });

  it('refuse a stage past the arch, a point that is not three numbers and an empty text, keeping nothing', async () => {
    const before = (await list(doctor.token)).json<PlanComment[]>().length;
    for (const [payload, field, message] of [
      [{ stage: 4, arch: 'upper', point: [0, 0, 0], text: 'x' }, 'stage', 'Stage must be from 0 to 3'],
      [{ stage: 1, arch: 'upper', point: [0, 0], text: 'x' }, 'point', 'Point must be three numbers (millimetres)'],
      [
        { stage: 1, arch: 'upper', point: [0, 0, 1e9], text: 'x' },
        'point.2',
        'Point must lie within 10 metres of the model',
      ],
      [{ stage: 1, arch: 'upper', point: [0, 0, 0], text: '   ' }, 'text', 'A comment is required'],
      [{ stage: 1, arch: 'side', point: [0, 0, 0], text: 'x' }, 'arch', 'Arch must be upper or lower'],
    ] as const) {
      const refused = await add(doctor.token, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().fieldErrors?.[field], JSON.stringify(refused.json())).toBe(message);
    }
    expect((await list(doctor.token)).json<PlanComment[]>()).toHaveLength(before);
  });

  it('are refused to everyone but the case doctor: 403 to the lab, 404 to another doctor; drafts hidden from the lab', async () => {
    const payload = { stage: 1, arch: 'upper', point: [0, 0, 0], text: 'Mine' };
    expect((await add(lab.token, payload)).statusCode).toBe(403);
    const refused = await add(other.token, payload);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
    expect((await list(other.token)).statusCode).toBe(404);
    expect((await list(lab.token)).json()).toEqual([]);
  });

  it('can be removed by the doctor while a draft; the lab cannot resolve a draft', async () => {
    const drafts = (await list(doctor.token)).json<PlanComment[]>();
    const last = drafts.at(-1)!;
    const url = `${commentsUrl()}/${last.commentId}`;
    expect((await t.as(lab.token, { method: 'DELETE', url })).statusCode).toBe(403);
    expect((await t.as(other.token, { method: 'DELETE', url })).statusCode).toBe(404);
    expect((await t.as(lab.token, { method: 'POST', url: `${url}/resolve` })).statusCode).toBe(404);
    const removed = await t.as(doctor.token, { method: 'DELETE', url });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await t.as(doctor.token, { method: 'DELETE', url })).json()).toEqual({
      message: 'Comment not found',
      code: 'notFound',
      params: { what: 'Comment' },
    });
    expect((await list(doctor.token)).json<PlanComment[]>()).toHaveLength(drafts.length - 1);
  });

  it('are at most 100 on a version: the 101st is refused, and nothing is stored', async () => {
    const written = (await list(doctor.token)).json<PlanComment[]>().length;
    const [author] = await t.app.db
      .select({ userId: users.userId })
      .from(users)
      .where(eq(users.userName, doctor.username));
    await t.app.db.insert(planComments).values(
      Array.from({ length: 100 - written }, () => ({
        planId,
        authorId: author!.userId,
        stage: 0,
        arch: 'upper' as const,
        point: [0, 0, 0],
        text: 'Filler',
      })),
    );
    const refused = await add(doctor.token, { stage: 0, arch: 'upper', point: [0, 0, 0], text: 'One more' });
    expect([refused.statusCode, refused.json().message]).toEqual([409, 'A version holds at most 100 pinned comments']);
    expect((await list(doctor.token)).json<PlanComment[]>()).toHaveLength(100);
    // Back to the comments the next test sends.
    await t.app.db.delete(planComments).where(and(eq(planComments.planId, planId), eq(planComments.text, 'Filler')));
  });

  it('go to the lab with the change request, stay, and are resolved by the lab once, live to the other side', async () => {
    const [doctorStream, labStream, otherStream] = [
      await openStream(doctor.token),
      await openStream(lab.token),
      await openStream(other.token),
    ];
    const changes = await t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${caseId}/plans/${planId}/request_changes`,
      payload: { comment: 'See the pinned comment' },
    });
    expect(changes.statusCode, changes.body).toBe(200);
    // The lab's page hears of the change request (with its comments) without reloading.
    await labStream.waitFor((event) => planEvents(labStream).includes(event));
    await doctorStream.waitFor((event) => planEvents(doctorStream).includes(event));
    const sent = (await list(lab.token)).json<PlanComment[]>();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ number: 1, tooth: 11, text: 'Less torque on this canine' });
    expect(sent[0]!.sentAt).toBeTruthy();
    const url = `${commentsUrl()}/${sent[0]!.commentId}`;
    // The version is decided: no new comment, and the sent one stays.
    const late = await add(doctor.token, { stage: 1, arch: 'upper', point: [0, 0, 0], text: 'One more' });
    expect([late.statusCode, late.json().message]).toEqual([
      409,
      'Comments are written on the version awaiting approval',
    ]);
    const kept = await t.as(doctor.token, { method: 'DELETE', url });
    expect([kept.statusCode, kept.json().message]).toEqual([
      409,
      'This comment was sent to the lab with a change request and stays',
    ]);
    expect((await t.as(doctor.token, { method: 'POST', url: `${url}/resolve` })).statusCode).toBe(403);
    const heardBefore = planEvents(doctorStream).length;
    const resolved = await t.as(lab.token, { method: 'POST', url: `${url}/resolve` });
    expect(resolved.statusCode, resolved.body).toBe(200);
    // The doctor's page hears of the resolution; another doctor's stream hears of nothing.
    await doctorStream.waitFor(() => planEvents(doctorStream).length > heardBefore);
    expect(planEvents(otherStream)).toEqual([]);
    const { resolvedAt, resolvedBy } = resolved.json<PlanComment>();
    expect(resolvedAt).toBeTruthy();
    expect(resolvedBy).toBeTruthy();
    const again = await t.as(lab.token, { method: 'POST', url: `${url}/resolve` });
    expect(again.json<PlanComment>().resolvedAt).toBe(resolvedAt);
    expect((await list(doctor.token)).json<PlanComment[]>()[0]).toMatchObject({ resolvedAt, resolvedBy });
  });
});
