import {
  assistantInvitePauseMinutes,
  assistantMessages,
  maxAssistantsPerDoctor,
  messages,
  resetMessages,
} from '@portal/contract';
import { createHash } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseDrafts, doctorAssistants, passwordResetTokens, users } from '../src/db/schema.ts';
import { binaryStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import {
  createAssistant,
  createStaff,
  doctorEditFields,
  formData,
  latestResetTokenTo,
  makeImage,
  outboxMessages,
  uniqueName,
} from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { openEventStream, type StreamedEvent } from './helpers/event-stream.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * docs/decisions/assistants.md § Assistants: a doctor invites an assistant, who works on that doctor's
 * cases (and several doctors' when each invites them), never another's.
 */
type Doctor = Awaited<ReturnType<typeof createCaseDoctor>>;
let t: TestApp;
let staff: string;
let staffEmail: string;
let doctorA: Doctor;
let doctorB: Doctor;
let doctorC: Doctor;
let caseOfA: number;
let caseOfB: number;
let caseOfC: number;

const png = async () => ({ data: await makeImage('png', 40), name: 'smile.png', type: 'image/png' });

async function newCase(doctor: Doctor): Promise<number> {
  const response = await submitCase(
    t,
    doctor.token,
    caseForm(caseFields(doctor.clinicId), {
      frontSmiling: await png(),
      maxillaryScan: { data: binaryStl(12), name: 'upper.stl' },
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ CaseId: number }>().CaseId;
}

const invite = (token: string | null, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/doctor/assistants', payload });

let address: Promise<string> | undefined;
/** The app on a real socket (event streams), started once for the file. */
const listening = () => (address ??= t.app.listen({ port: 0, host: '127.0.0.1' }));

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

const caseIds = async (token: string, query: Record<string, string> = {}) =>
  (
    await t.as(token, {
      method: 'GET',
      url: '/api/case/get_cases_by_status/all/0',
      query: { pageSize: '30', ...query },
    })
  )
    .json<{ CaseId: number }[]>()
    .map((row) => row.CaseId);

/** The id of a case's photo, as its doctor reads it (from the file's address). */
async function photoIdOf(doctor: Doctor, caseId: number): Promise<number> {
  const rows = (await get(doctor.token, `/api/case/get_cases_attachments_by_case_id/${caseId}`)).json<
    { FileName: string; FilePath: string }[]
  >();
  const path = rows.find((row) => row.FileName === 'smile.png')!.FilePath;
  return Number(/\/files\/(\d+)\//.exec(path)![1]);
}

beforeAll(async () => {
  t = await createTestApp();
  const dashboardStaff = await createStaff(t, [1]);
  staff = dashboardStaff.token;
  staffEmail = `${dashboardStaff.username}@lab.test`;
  doctorA = await createCaseDoctor(t);
  doctorB = await createCaseDoctor(t);
  doctorC = await createCaseDoctor(t);
  caseOfA = await newCase(doctorA);
  caseOfB = await newCase(doctorB);
  caseOfC = await newCase(doctorC);
}, scaled(60_000));
afterAll(() => t.close());

describe('POST /api/doctor/assistants', () => {
  it('invites a new assistant: a mail with a link to set a password, then sign-in with the e-mail', async () => {
    const email = `${uniqueName('new')}@example.com`;
    const response = await invite(doctorA.token, { email, firstName: 'Nora', lastName: 'Neu' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: assistantMessages.invited });
    await t.app.outbox.deliverDue();
    const [mail] = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`));
    expect(readableMail(mail!)).toMatch(/added you as an assistant on Aligner Portal/);

    // Nobody knows the password until the link sets it.
    expect(
      (await t.as(null, { method: 'POST', url: '/api/auth/login', payload: { username: email, password: 'x' } }))
        .statusCode,
    ).toBe(401);
    expect((await get(doctorA.token, '/api/doctor/assistants')).json()).toContainEqual(
      expect.objectContaining({ email, state: 'invited' }),
    );
    const token = await latestResetTokenTo(t, email);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token, newPassword: 'nora-passphrase' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await t.as(null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: email, password: 'nora-passphrase' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ message: messages.loginSucceeded, userType: 'Assistant' });
    const list = (await get(doctorA.token, '/api/doctor/assistants')).json<{ email: string; firstName: string }[]>();
    expect(list).toContainEqual(expect.objectContaining({ email, firstName: 'Nora', state: 'active' }));
    // Another doctor's list does not show A's assistant.
    expect((await get(doctorB.token, '/api/doctor/assistants')).json()).not.toContainEqual(
      expect.objectContaining({ email }),
    );
  });

  it('sends an invitation link that lasts 7 days and names the doctor and clinic; one to an assistant with a password is an hour-long reset', async () => {
    const email = `${uniqueName('week')}@example.com`;
    expect((await invite(doctorA.token, { email, firstName: 'Wendy', lastName: 'Week' })).statusCode).toBe(200);
    const token = await latestResetTokenTo(t, email);
    const mails = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`));
    expect(readableMail(mails.at(-1)!)).toMatch(/valid for 7 days/);
    const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');
    const lifetimeOf = async (value: string) =>
      (
        await t.app.db
          .select({ seconds: sql<number>`extract(epoch from expires_at - created_at)::int` })
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.tokenHash, hashOf(value)))
      )[0]!.seconds;
    const age = (value: string, interval: string) =>
      t.app.db
        .update(passwordResetTokens)
        .set({
          createdAt: sql`created_at - ${interval}::interval`,
          expiresAt: sql`expires_at - ${interval}::interval`,
        })
        .where(eq(passwordResetTokens.tokenHash, hashOf(value)));
    const verify = (value: string) => t.app.inject({ method: 'GET', url: `/api/doctor/verify_token/${value}` });
    const setPassword = (value: string, newPassword: string) =>
      t.app.inject({ method: 'POST', url: '/api/doctor/reset_password', payload: { token: value, newPassword } });
    expect(await lifetimeOf(token)).toBe(7 * 86_400);
    const [doctorRow] = await t.app.db
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.userId, doctorA.userId));
    const invitation = {
      success: true,
      message: resetMessages.invitationValid,
      invitation: { invitedBy: `${doctorRow!.firstName} ${doctorRow!.lastName}`, clinic: 'Smile Clinic' },
    };
    expect((await verify(token)).json()).toEqual(invitation);
    // Two days in an inbox: still an invitation, and it sets the first password.
    await age(token, '2 days');
    expect((await verify(token)).json()).toEqual(invitation);
    expect((await setPassword(token, 'wendy-passphrase')).statusCode).toBe(200);

    // The assistant now has a password: B's link to them is an ordinary reset, an hour long.
    expect((await invite(doctorB.token, { email, firstName: 'W', lastName: 'W' })).json()).toEqual({
      message: assistantMessages.linked,
    });
    const reset = await latestResetTokenTo(t, email);
    const resetMails = (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`));
    expect(readableMail(resetMails.at(-1)!)).toMatch(/valid for one hour/);
    expect(await lifetimeOf(reset)).toBe(3600);
    expect((await verify(reset)).json()).toEqual({ success: true, message: resetMessages.linkValid });
    await age(reset, '2 hours');
    expect((await verify(reset)).json()).toEqual({ success: false, message: resetMessages.linkInvalid });
    expect((await setPassword(reset, 'other-passphrase')).statusCode).toBe(400);
  });

  it('sends a new link when an assistant who never set a password is invited again, and the old one still works', async () => {
    const email = `${uniqueName('again')}@example.com`;
    expect((await invite(doctorA.token, { email, firstName: 'Otto', lastName: 'Late' })).statusCode).toBe(200);
    const first = await latestResetTokenTo(t, email);
    const { invitedAt } = (await get(doctorA.token, '/api/doctor/assistants'))
      .json<{ email: string; invitedAt: string }[]>()
      .find((row) => row.email === email)!;

    // At once: refused, nothing mailed and no new link.
    const mailsTo = async () => {
      await t.app.outbox.deliverDue();
      return (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`)).length;
    };
    const mailsFirst = await mailsTo();
    const tooSoon = await invite(doctorA.token, { email, firstName: 'Otto', lastName: 'Late' });
    expect(tooSoon.statusCode, tooSoon.body).toBe(429);
    expect(tooSoon.json()).toMatchObject({ message: assistantMessages.tooSoon });
    expect(await latestResetTokenTo(t, email)).toBe(first);
    expect(await mailsTo()).toBe(mailsFirst);

    // Past the pause: a new link.
    await t.app.db
      .update(doctorAssistants)
      .set({ createdAt: sql`now() - make_interval(mins => ${assistantInvitePauseMinutes + 1})` })
      .where(
        sql`${doctorAssistants.assistantUserId} = (select ${users.userId} from ${users} where ${users.email} = ${email})`,
      );
    const again = await invite(doctorA.token, { email: email.toUpperCase(), firstName: 'Otto', lastName: 'Late' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ message: assistantMessages.resent });
    const second = await latestResetTokenTo(t, email);
    expect(second).not.toBe(first);
    const rows = (await get(doctorA.token, '/api/doctor/assistants'))
      .json<{ email: string; invitedAt: string; state: string }[]>()
      .filter((row) => row.email === email);
    // Still one row, still invited, with the new invitation's time.
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toBe('invited');
    expect(Date.parse(rows[0]!.invitedAt)).toBeGreaterThanOrEqual(Date.parse(invitedAt));

    // The first link still sets the password (within its hour); after that, inviting again only says so, and mails nothing.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token: first, newPassword: 'otto-passphrase' },
    });
    expect(reset.statusCode).toBe(200);
    const mailsBefore = await mailsTo();
    const once = await invite(doctorA.token, { email, firstName: 'Otto', lastName: 'Late' });
    expect(once.json()).toEqual({ message: assistantMessages.alreadyLinked });
    expect(await mailsTo()).toBe(mailsBefore);
  });

  it(`mails an assistant at most once per ${assistantInvitePauseMinutes} minutes, even when revoked and invited again (429)`, async () => {
    const email = `${uniqueName('flood')}@example.com`;
    expect((await invite(doctorA.token, { email, firstName: 'Flo', lastName: 'Od' })).statusCode).toBe(200);
    const [row] = (await get(doctorA.token, '/api/doctor/assistants'))
      .json<{ userId: number; email: string }[]>()
      .filter((assistant) => assistant.email === email);
    const revoked = await t.as(doctorA.token, { method: 'DELETE', url: `/api/doctor/assistants/${row!.userId}` });
    expect(revoked.statusCode).toBe(200);
    const first = await latestResetTokenTo(t, email);

    const again = await invite(doctorA.token, { email, firstName: 'Flo', lastName: 'Od' });
    expect(again.statusCode, again.body).toBe(429);
    expect(again.json()).toMatchObject({ message: assistantMessages.tooSoon });
    // Still revoked, and no new link.
    expect(
      (await get(doctorA.token, '/api/doctor/assistants')).json<{ email: string }[]>().map((a) => a.email),
    ).not.toContain(email);
    expect(await latestResetTokenTo(t, email)).toBe(first);
  });

  it('refuses bad input with field messages and writes nothing', async () => {
    const before = await t.app.db.select({ n: count() }).from(users);
    const bad = await invite(doctorA.token, { email: 'not-an-address', firstName: '', lastName: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({ email: 'Email is not valid', firstName: 'First Name is required' });
    expect(await t.app.db.select({ n: count() }).from(users)).toEqual(before);
  });

  it("refuses a doctor's or staff e-mail with one message (409), creating and linking nothing", async () => {
    const before = await t.app.db.select({ n: count() }).from(doctorAssistants);
    for (const email of [doctorB.email, staffEmail]) {
      const response = await invite(doctorA.token, { email: email.toUpperCase(), firstName: 'X', lastName: 'Y' });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().message).toBe(assistantMessages.notAssistantEmail);
    }
    expect(await t.app.db.select({ n: count() }).from(doctorAssistants)).toEqual(before);
  });

  it('links an existing assistant to a second doctor and tells them by mail', async () => {
    const assistant = await createAssistant(t, doctorA.token);
    const again = await invite(doctorA.token, { email: assistant.email, firstName: 'A', lastName: 'B' });
    expect(again.json()).toEqual({ message: assistantMessages.alreadyLinked });
    const linked = await invite(doctorB.token, { email: assistant.email, firstName: 'Other', lastName: 'Name' });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual({ message: assistantMessages.linked });
    await t.app.outbox.deliverDue();
    const invitations = (await outboxMessages(t)).filter(
      (raw) => raw.includes(`To: ${assistant.email}`) && readableMail(raw).includes('added you as an assistant'),
    );
    // A's invitation and B's; A's repeat changed nothing and mailed nothing.
    expect(invitations).toHaveLength(2);
    const doctors = (await get(assistant.token, '/api/assistant/doctors')).json<{ userId: number }[]>();
    expect(doctors.map((doctor) => doctor.userId).sort()).toEqual([doctorA.userId, doctorB.userId].sort());
  });

  it(`allows at most ${maxAssistantsPerDoctor} assistants per doctor (409), adding none past it`, async () => {
    const doctor = await createCaseDoctor(t);
    for (let index = 0; index < maxAssistantsPerDoctor; index++) {
      const response = await invite(doctor.token, {
        email: `${uniqueName('many')}@example.com`,
        firstName: 'Many',
        lastName: String(index),
      });
      expect(response.statusCode).toBe(200);
    }
    const email = `${uniqueName('past')}@example.com`;
    const past = await invite(doctor.token, { email, firstName: 'One', lastName: 'Too many' });
    expect(past.statusCode).toBe(409);
    expect(past.json().message).toBe(assistantMessages.tooMany);
    expect(await t.app.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('is for doctors alone: staff and assistants are refused', async () => {
    const assistant = await createAssistant(t, doctorC.token);
    for (const token of [staff, assistant.token]) {
      expect((await invite(token, { email: 'x@example.com', firstName: 'X', lastName: 'Y' })).statusCode).toBe(403);
    }
  });
});

describe("an assistant's reach", () => {
  it("reads both doctors' cases in lists, stats and search, and nothing of a third doctor's", async () => {
    const assistant = await createAssistant(t, doctorA.token);
    await invite(doctorB.token, { email: assistant.email, firstName: 'A', lastName: 'B' });
    const seen = await caseIds(assistant.token);
    expect(seen).toEqual(expect.arrayContaining([caseOfA, caseOfB]));
    expect(seen).not.toContain(caseOfC);
    expect(seen.sort()).toEqual([...(await caseIds(doctorA.token)), ...(await caseIds(doctorB.token))].sort());
    // Naming one of their doctors narrows to that doctor; naming another doctor gives their own reach.
    const onlyA = (await get(assistant.token, `/api/case/get_cases_by_status/all/${doctorA.userId}?pageSize=30`)).json<
      { CaseId: number }[]
    >();
    expect(onlyA.map((row) => row.CaseId).sort()).toEqual((await caseIds(doctorA.token)).sort());
    const askedC = await get(assistant.token, `/api/case/get_cases_by_status/all/${doctorC.userId}?pageSize=30`);
    expect(askedC.json<{ CaseId: number }[]>().map((row) => row.CaseId)).not.toContain(caseOfC);

    const [stats] = (await get(assistant.token, '/api/case/get_all_stats/0')).json<{ total: number }[]>();
    const totalOf = async (token: string) =>
      (await get(token, '/api/case/get_all_stats/0')).json<{ total: number }[]>()[0]!.total;
    expect(stats!.total).toBe((await totalOf(doctorA.token)) + (await totalOf(doctorB.token)));

    // A search by tracking number finds A's case and never C's.
    const trackingOf = async (caseId: number, token: string) =>
      (await get(token, `/api/case/${caseId}`)).json<{ TrackingNo: string }>().TrackingNo;
    const foundA = await caseIds(assistant.token, { search: await trackingOf(caseOfA, doctorA.token) });
    expect(foundA).toEqual([caseOfA]);
    expect(await caseIds(assistant.token, { search: await trackingOf(caseOfC, doctorC.token) })).toEqual([]);
  });

  it("answers 404 for a third doctor's case, files, thumbnail, ZIP, messages, plan view and draft", async () => {
    const assistant = await createAssistant(t, doctorA.token);
    const photoOfC = await photoIdOf(doctorC, caseOfC);
    const plan = await uploadPlan(t, staff, caseOfC, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
    expect(plan.statusCode, plan.body).toBe(200);
    const planId = plan.json<{ planId: number }>().planId;
    const draft = await t.as(doctorC.token, { method: 'POST', url: '/api/case/drafts', payload: { fields: {} } });
    const draftId = draft.json<{ draftId: number }>().draftId;
    for (const url of [
      `/api/case/${caseOfC}`,
      `/api/case/${caseOfC}/timeline`,
      `/api/case/get_cases_attachments_by_case_id/${caseOfC}`,
      `/api/case/files/${photoOfC}/smile.png`,
      `/api/case/file-thumbnails/${photoOfC}`,
      `/api/case/${caseOfC}/files.zip`,
      `/api/case/${caseOfC}/messages`,
      `/api/case/${caseOfC}/plans`,
      `/api/case/${caseOfC}/plans/${planId}/views`,
      `/api/case/drafts/${draftId}`,
    ]) {
      expect((await get(assistant.token, url)).statusCode, url).toBe(404);
    }
    // Their own doctor's, the same requests succeed.
    const photoOfA = await photoIdOf(doctorA, caseOfA);
    for (const url of [
      `/api/case/${caseOfA}`,
      `/api/case/files/${photoOfA}/smile.png`,
      `/api/case/file-thumbnails/${photoOfA}`,
      `/api/case/${caseOfA}/files.zip`,
      `/api/case/${caseOfA}/messages`,
    ]) {
      expect((await get(assistant.token, url)).statusCode, url).toBe(200);
    }
  });

  it("submits a case for one of their doctors, named on its timeline; never for another's", async () => {
    const assistant = await createAssistant(t, doctorA.token);
    await invite(doctorB.token, { email: assistant.email, firstName: 'A', lastName: 'B' });
    const fields = caseFields(doctorA.clinicId);
    // Two doctors: the case must name one, and only one of theirs.
    const unnamed = await submitCase(
      t,
      assistant.token,
      caseForm(fields, { maxillaryScan: { data: binaryStl(12), name: 'u.stl' } }),
    );
    expect(unnamed.statusCode).toBe(400);
    const forC = await submitCase(
      t,
      assistant.token,
      caseForm(
        { ...caseFields(doctorC.clinicId), userId: doctorC.userId },
        { maxillaryScan: { data: binaryStl(12), name: 'u.stl' } },
      ),
    );
    expect(forC.statusCode).toBe(400);
    expect(forC.json().message).toBe('Doctor is not valid');
    // B's name with A's clinic: the clinic must be the named doctor's.
    const mixed = await submitCase(
      t,
      assistant.token,
      caseForm({ ...fields, userId: doctorB.userId }, { maxillaryScan: { data: binaryStl(12), name: 'u.stl' } }),
    );
    expect(mixed.statusCode).toBe(400);

    const created = await submitCase(
      t,
      assistant.token,
      caseForm({ ...fields, userId: doctorA.userId }, { maxillaryScan: { data: binaryStl(12), name: 'u.stl' } }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const caseId = created.json<{ CaseId: number }>().CaseId;
    expect(await caseIds(doctorA.token)).toContain(caseId);
    expect(await caseIds(doctorB.token)).not.toContain(caseId);

    const [named] = await t.app.db
      .select({ name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
      .from(users)
      .where(eq(users.userId, assistant.userId));
    const timeline = (await get(doctorA.token, `/api/case/${caseId}/timeline`)).json<
      { kind: string; by: number; byName: string }[]
    >();
    expect(timeline[0]).toMatchObject({ kind: 'created', by: assistant.userId, byName: named!.name });

    // A message the assistant writes is on the doctor's side, under the assistant's name.
    const message = await t.as(assistant.token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: caseForm({ text: 'Photos follow tomorrow' }),
    });
    expect(message.statusCode, message.body).toBe(200);
    const thread = (await get(doctorA.token, `/api/case/${caseId}/messages`)).json<
      { authorName: string; side: string }[]
    >();
    expect(thread.at(-1)).toMatchObject({ authorName: named!.name, side: 'doctor' });
  });

  it('keeps their own drafts, for one of their doctors only', async () => {
    const assistant = await createAssistant(t, doctorA.token);
    const mine = await t.as(assistant.token, {
      method: 'POST',
      url: '/api/case/drafts',
      payload: { fields: {} },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const forC = await t.as(assistant.token, {
      method: 'POST',
      url: '/api/case/drafts',
      payload: { fields: {}, doctorUserId: doctorC.userId },
    });
    expect(forC.statusCode).toBe(400);
    const [row] = await t.app.db.select().from(caseDrafts).where(eq(caseDrafts.draftId, mine.json().draftId));
    expect(row).toMatchObject({ ownerUserId: assistant.userId, doctorUserId: doctorA.userId });
    // The doctor does not read the assistant's draft: a draft is its writer's alone.
    expect((await get(doctorA.token, `/api/case/drafts/${mine.json().draftId}`)).statusCode).toBe(404);
  });

  it("is refused the doctor's clinical decisions (403) and the doctor's own account (403)", async () => {
    const assistant = await createAssistant(t, doctorA.token);
    const plan = await uploadPlan(t, staff, caseOfA, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
    const planId = plan.json<{ planId: number }>().planId;
    const approve = await t.as(assistant.token, {
      method: 'POST',
      url: `/api/case/${caseOfA}/plans/${planId}/approve`,
      payload: { reviewedIn3d: true },
    });
    expect(approve.statusCode).toBe(403);
    expect(approve.json().message).toBe("Only the case's doctor can approve a treatment plan or request changes");
    for (const url of ['/api/doctor/preferences', `/api/doctor/get_doctor_detail_by_user_Id/${doctorA.userId}`]) {
      expect((await get(assistant.token, url)).statusCode, url).toBe(403);
    }
    // Reading the plan is theirs to do.
    expect((await get(assistant.token, `/api/case/${caseOfA}/plans/${planId}/views`)).statusCode).not.toBe(404);
  });
});

describe('DELETE /api/doctor/assistants/{assistantUserId}', () => {
  it("takes effect at the assistant's next request; another doctor's assistant is 404", async () => {
    const assistant = await createAssistant(t, doctorA.token);
    expect((await get(assistant.token, `/api/case/${caseOfA}`)).statusCode).toBe(200);
    const other = await t.as(doctorB.token, { method: 'DELETE', url: `/api/doctor/assistants/${assistant.userId}` });
    expect(other.statusCode).toBe(404);
    expect((await get(assistant.token, `/api/case/${caseOfA}`)).statusCode).toBe(200);

    const revoked = await t.as(doctorA.token, { method: 'DELETE', url: `/api/doctor/assistants/${assistant.userId}` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: assistantMessages.revoked });
    expect((await get(assistant.token, `/api/case/${caseOfA}`)).statusCode).toBe(404);
    expect(await caseIds(assistant.token)).toEqual([]);
    expect((await get(assistant.token, '/api/case/get_all_stats/0')).json()[0].total).toBe(0);
    expect((await get(doctorA.token, '/api/doctor/assistants')).json()).not.toContainEqual(
      expect.objectContaining({ userId: assistant.userId }),
    );
    // Revoked twice: not found.
    expect(
      (await t.as(doctorA.token, { method: 'DELETE', url: `/api/doctor/assistants/${assistant.userId}` })).statusCode,
    ).toBe(404);
  });
});

describe('GET /api/events for an assistant', () => {
  it("streams their doctors' case events only", async () => {
    const assistant = await createAssistant(t, doctorA.token);
    const base = await listening();
    const reader = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${assistant.token}` });
    try {
      expect(reader.status).toBe(200);
      const statusOf = (caseId: number) => (event: StreamedEvent) =>
        event.type === 'case.status' && (event.data as { caseId: number }).caseId === caseId;
      for (const caseId of [caseOfC, caseOfA]) {
        const changed = await t.as(staff, {
          method: 'PUT',
          url: `/api/case/status/${caseId}`,
          payload: { status: 'inprogress' },
        });
        expect(changed.statusCode, changed.body).toBe(200);
      }
      await reader.waitFor(statusOf(caseOfA));
      expect(reader.events.some(statusOf(caseOfC))).toBe(false);
    } finally {
      reader.close();
    }
  });
});

/** An assistant of doctors A and B: A invites them, B then links the same address. */
async function assistantOfAAndB() {
  const assistant = await createAssistant(t, doctorA.token);
  const linked = await invite(doctorB.token, { email: assistant.email, firstName: 'Asta', lastName: 'Both' });
  expect(linked.json()).toEqual({ message: assistantMessages.linked });
  return assistant;
}

describe('GET /api/events for an assistant, after a revoke', () => {
  it("stops carrying the revoking doctor's events on the open stream, and keeps the other doctor's", async () => {
    const assistant = await assistantOfAAndB();
    // New cases, in 'new': the status changes below do not depend on what other tests did.
    const freshOfA = await newCase(doctorA);
    const freshOfB = await newCase(doctorB);
    const base = await listening();
    const reader = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${assistant.token}` });
    try {
      expect(reader.status).toBe(200);
      const revoked = await t.as(doctorA.token, {
        method: 'DELETE',
        url: `/api/doctor/assistants/${assistant.userId}`,
      });
      expect(revoked.statusCode).toBe(200);
      const noteOf = (caseId: number) => (event: StreamedEvent) =>
        event.type === 'case.status' && (event.data as { caseId: number }).caseId === caseId;
      // A's change first: by the time B's arrives, A's would have.
      for (const caseId of [freshOfA, freshOfB]) {
        const changed = await t.as(staff, {
          method: 'PUT',
          url: `/api/case/status/${caseId}`,
          payload: { status: 'inprogress' },
        });
        expect(changed.statusCode, changed.body).toBe(200);
      }
      await reader.waitFor(noteOf(freshOfB));
      expect(reader.events.some(noteOf(freshOfA))).toBe(false);
    } finally {
      reader.close();
    }
  });
});

describe("a doctor's deactivation", () => {
  it("cuts their assistants' reach at the next request; the assistant keeps their other doctors", async () => {
    const doctorD = await createCaseDoctor(t);
    const caseOfD = await newCase(doctorD);
    const assistant = await createAssistant(t, doctorD.token);
    const linked = await invite(doctorA.token, { email: assistant.email, firstName: 'Asta', lastName: 'Two' });
    expect(linked.statusCode).toBe(200);
    expect((await get(assistant.token, `/api/case/${caseOfD}`)).statusCode).toBe(200);

    const deactivated = await t.as(await t.adminToken(), {
      method: 'PUT',
      url: `/api/doctor/edit/${doctorD.doctorId}`,
      payload: formData(await doctorEditFields(t, doctorD, { isActive: 'false' })),
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await get(assistant.token, `/api/case/${caseOfD}`)).statusCode).toBe(404);
    const listed = await caseIds(assistant.token);
    expect(listed).not.toContain(caseOfD);
    expect(listed).toContain(caseOfA);
    const doctors = (await get(assistant.token, '/api/assistant/doctors')).json<{ userId: number }[]>();
    expect(doctors.map((doctor) => doctor.userId)).toEqual([doctorA.userId]);
    // Naming the deactivated doctor for a new case is refused.
    const submitted = await submitCase(
      t,
      assistant.token,
      caseForm(caseFields(doctorD.clinicId, { userId: String(doctorD.userId) }), { frontSmiling: await png() }),
    );
    expect(submitted.statusCode).toBe(400);
  });
});

describe('GET /api/inbox for an assistant', () => {
  it("lists their doctors' unread lab messages and plans awaiting, never a third doctor's", async () => {
    const assistant = await assistantOfAAndB();
    for (const caseId of [caseOfA, caseOfB, caseOfC]) {
      const written = await t.as(staff, {
        method: 'POST',
        url: `/api/case/${caseId}/messages`,
        payload: caseForm({ text: `From the lab about ${caseId}` }),
      });
      expect(written.statusCode, written.body).toBe(200);
      const plan = await uploadPlan(t, staff, caseId, planForm(planSummaryOf(1, 1), stageFiles(1, 1)));
      expect(plan.statusCode, plan.body).toBe(200);
    }
    const inbox = (await get(assistant.token, '/api/inbox')).json<{
      items: { kind: string; caseId: number }[];
    }>();
    const kindsOf = (caseId: number) =>
      inbox.items
        .filter((item) => item.caseId === caseId)
        .map((item) => item.kind)
        .sort();
    expect(kindsOf(caseOfA)).toEqual(['message', 'plan']);
    expect(kindsOf(caseOfB)).toEqual(['message', 'plan']);
    expect(kindsOf(caseOfC)).toEqual([]);
  });
});
