import { maxRepliesPerComment, type PlanComment } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planComments } from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createAssistant, createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * Issue 41: a short thread on each pinned comment sent to the lab (docs/decisions/plans.md §
 * Replies on a pinned comment): the lab and the doctor's side (the doctor, their assistant)
 * reply, each reply with its author, side and time; a draft takes none; another doctor is 404;
 * a reply is at most 1000 characters and a comment holds at most `maxRepliesPerComment`.
 */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let lab: { token: string };
let caseId: number;
let planId: number;
let sent: PlanComment;
let draft: PlanComment;

const commentsUrl = () => `/api/case/${caseId}/plans/${planId}/comments`;
const reply = (token: string, commentId: number, payload: object) =>
  t.as(token, { method: 'POST', url: `${commentsUrl()}/${commentId}/replies`, payload });
const repliesIn = async (commentId: number) =>
  Number(
    (
      (await t.app.db.execute(
        sql`select count(*)::int as n from plan_comment_replies where comment_id = ${commentId}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n,
  );

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  other = await createCaseDoctor(t);
  lab = await createStaff(t, [1]);
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  caseId = created.json<{ CaseId: number }>().CaseId;
  const uploaded = await uploadPlan(t, admin, caseId, planForm(planSummaryOf(2, 1), stageFiles(2, 1)));
  planId = uploaded.json<{ planId: number }>().planId;
  const pin = (text: string) =>
    t.as(doctor.token, {
      method: 'POST',
      url: commentsUrl(),
      payload: { stage: 1, arch: 'upper', point: [0, 0, 0], text },
    });
  sent = (await pin('Less torque here')).json<PlanComment>();
  const changes = await t.as(doctor.token, {
    method: 'POST',
    url: `/api/case/${caseId}/plans/${planId}/request_changes`,
    payload: { comment: 'See the pins' },
  });
  expect(changes.statusCode, changes.body).toBe(200);
  // A draft (not yet sent) as a version awaiting approval holds it: written straight, as the version is decided now.
  const [row] = await t.app.db
    .insert(planComments)
    .values({ planId, authorId: doctor.userId, stage: 0, arch: 'upper', point: [0, 0, 0], text: 'Not sent yet' })
    .returning({ commentId: planComments.commentId });
  draft = { ...sent, commentId: row!.commentId };
});
afterAll(() => t?.close());

describe('replies on a pinned comment', () => {
  it('come from the lab and the doctor side, each with its author, side and time, oldest first', async () => {
    const fromLab = await reply(lab.token, sent.commentId, { text: '  Reduced to 5 degrees in version 2.  ' });
    expect(fromLab.statusCode, fromLab.body).toBe(200);
    expect(fromLab.json<PlanComment>().replies).toEqual([
      {
        replyId: expect.any(Number),
        text: 'Reduced to 5 degrees in version 2.',
        author: expect.any(String),
        side: 'lab',
        createdAt: expect.any(String),
      },
    ]);
    const fromDoctor = await reply(doctor.token, sent.commentId, { text: 'Thanks, that works.' });
    expect(fromDoctor.statusCode, fromDoctor.body).toBe(200);
    const assistant = await createAssistant(t, doctor.token);
    const fromAssistant = await reply(assistant.token, sent.commentId, { text: 'Noted for the patient.' });
    expect(fromAssistant.statusCode, fromAssistant.body).toBe(200);
    const thread = fromAssistant.json<PlanComment>().replies;
    expect(thread.map((row) => [row.side, row.text])).toEqual([
      ['lab', 'Reduced to 5 degrees in version 2.'],
      ['doctor', 'Thanks, that works.'],
      ['doctor', 'Noted for the patient.'],
    ]);
    expect(thread[1]!.author).toBe('Ada Lovelace');
    expect(Date.parse(thread[0]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    // Both sides read the thread with the comments.
    for (const token of [lab.token, doctor.token]) {
      const listed = (await t.as(token, { method: 'GET', url: commentsUrl() })).json<PlanComment[]>();
      expect(listed.find((row) => row.commentId === sent.commentId)!.replies).toHaveLength(3);
    }
    await vi.waitFor(
      async () => {
        const rows = (
          (await t.app.db.execute(
            sql`select target from audit_log where action = 'plan.comment_reply' and outcome = 'success'`,
          )) as unknown as { rows: { target: string }[] }
        ).rows;
        expect(rows).toHaveLength(3);
        expect(rows[0]!.target).toMatch(
          new RegExp(`^case:${caseId}/plan:${planId}/comment:${sent.commentId}/reply:\\d+$`),
        );
      },
      { timeout: scaled(5000), interval: 50 },
    );
  });

  it('are refused on a draft (404 to the lab, 409 to the doctor), to another doctor (404) and past 1000 characters, keeping nothing', async () => {
    expect((await reply(lab.token, draft.commentId, { text: 'x' })).json()).toEqual({
      message: 'Comment not found',
      code: 'notFound',
      params: { what: 'Comment' },
    });
    const onDraft = await reply(doctor.token, draft.commentId, { text: 'x' });
    expect(onDraft.statusCode).toBe(409);
    expect(onDraft.json()).toEqual({ message: 'Replies start once the comment has been sent to the lab' });
    const another = await reply(other.token, sent.commentId, { text: 'x' });
    expect(another.statusCode).toBe(404);
    expect(another.json()).toEqual({ message: 'Case not found', code: 'notFound', params: { what: 'Case' } });
    expect((await reply(lab.token, 999_999, { text: 'x' })).statusCode).toBe(404);
    for (const [text, message] of [
      ['   ', 'A reply is required'],
      ['x'.repeat(1001), 'A reply is at most 1000 characters'],
    ] as const) {
      const refused = await reply(lab.token, sent.commentId, { text });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fieldErrors).toEqual({ text: message });
    }
    expect(await repliesIn(draft.commentId)).toBe(0);
    expect(await repliesIn(sent.commentId)).toBe(3);
  });

  it(`hold at most ${maxRepliesPerComment} on a comment (409 past it)`, async () => {
    for (let n = await repliesIn(sent.commentId); n < maxRepliesPerComment; n++) {
      expect((await reply(n % 2 ? lab.token : doctor.token, sent.commentId, { text: `Reply ${n}` })).statusCode).toBe(
        200,
      );
    }
    const refused = await reply(lab.token, sent.commentId, { text: 'One more' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: `A pinned comment holds at most ${maxRepliesPerComment} replies` });
    expect(await repliesIn(sent.commentId)).toBe(maxRepliesPerComment);
  });
});
