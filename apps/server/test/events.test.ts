import { eq } from 'drizzle-orm';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { openEventStream, type EventStreamReader, type StreamedEvent } from './helpers/event-stream.ts';
import { createStaff, doctorEditFields, formData } from './helpers/factories.ts';
import { approvedPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { maxStreamsPerUser } from '../src/plugins/events.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** GET /api/events on a real socket: who hears which status change, and when streams end. */
let t: TestApp;
let base: string;
let doctorA: Awaited<ReturnType<typeof createCaseDoctor>>;
let doctorB: Awaited<ReturnType<typeof createCaseDoctor>>;
let staff: Awaited<ReturnType<typeof createStaff>>;
let caseOfA: number;
let caseOfB: number;
const open: EventStreamReader[] = [];

beforeAll(async () => {
  t = await createTestApp({ events: { heartbeatMs: 200, sessionCheckMs: 300 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  doctorA = await createCaseDoctor(t);
  doctorB = await createCaseDoctor(t);
  staff = await createStaff(t, [1]);
  caseOfA = (await submitCase(t, doctorA.token, caseForm(caseFields(doctorA.clinicId)))).json<{ CaseId: number }>()
    .CaseId;
  caseOfB = (await submitCase(t, doctorB.token, caseForm(caseFields(doctorB.clinicId)))).json<{ CaseId: number }>()
    .CaseId;
}, scaled(60_000));
afterAll(async () => {
  for (const stream of open) stream.close();
  await t?.close();
});

async function stream(token: string | null, headers: Record<string, string> = {}) {
  const reader = await openEventStream(`${base}/api/events`, {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...headers,
  });
  open.push(reader);
  return reader;
}

async function setStatus(caseId: number, status: string) {
  // A dispatch names its courier and tracking number (docs/decisions/cases.md § Case status workflow).
  const shipping = status === 'dispatched' ? { courier: 'DHL', trackingNumber: 'JD0146' } : {};
  // Dispatch needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
  if (status === 'dispatched')
    await approvedPlan(t, staff.token, caseId === caseOfA ? doctorA.token : doctorB.token, caseId);
  const response = await t.as(staff.token, {
    method: 'PUT',
    url: `/api/case/status/${caseId}`,
    payload: { status, ...shipping },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const statusOf = (caseId: number, status: string) => (event: StreamedEvent) =>
  event.type === 'case.status' &&
  (event.data as { caseId: number }).caseId === caseId &&
  (event.data as { status: string }).status === status;

describe('GET /api/events', () => {
  it("streams a doctor their own cases' status changes and never another doctor's; staff get all", async () => {
    const a = await stream(doctorA.token);
    const staffStream = await stream(staff.token);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(a.headers.get('cache-control')).toBe('private, no-store');

    await setStatus(caseOfB, 'inprogress');
    await setStatus(caseOfA, 'inprogress');
    const own = await a.waitFor(statusOf(caseOfA, 'inprogress'));
    expect(Object.keys(own.data as object).sort()).toEqual(['at', 'caseId', 'status']);
    expect(Date.parse((own.data as { at: string }).at)).toBeGreaterThan(Date.now() - 60_000);
    await staffStream.waitFor(statusOf(caseOfB, 'inprogress'));
    await staffStream.waitFor(statusOf(caseOfA, 'inprogress'));
    // B's change was published before A's: had it been sent to A, it would have arrived first.
    expect(a.events.filter((event) => (event.data as { caseId: number }).caseId === caseOfB)).toEqual([]);
    expect(a.events).toHaveLength(1);
  });

  it('sends heartbeat comments on a quiet stream', async () => {
    const a = await stream(doctorA.token);
    await expect.poll(() => a.comments.filter((comment) => comment === 'heartbeat').length).toBeGreaterThan(0);
  });

  it('accepts the sign-in cookie (EventSource sends no Authorization header)', async () => {
    const a = await stream(null, { cookie: `token=${doctorA.token}` });
    expect(a.status).toBe(200);
    await setStatus(caseOfA, 'dispatched');
    await a.waitFor(statusOf(caseOfA, 'dispatched'));
  });

  it('refuses anyone not signed in (401) and staff without the Dashboard page (403)', async () => {
    expect((await stream(null)).status).toBe(401);
    const usersOnly = await createStaff(t, [4]);
    expect((await stream(usersOnly.token)).status).toBe(403);
    const head = await fetch(`${base}/api/events`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${doctorA.token}` },
    });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
  });

  it('ends the stream of a token that signs out, at once', async () => {
    const token = await t.login(doctorA.username, doctorA.password);
    const a = await stream(token);
    expect((await t.as(token, { method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
    await a.ended;
  });

  it('closes the connection of a stream it ends: a client keeping connections alive is not left holding it', async () => {
    // Kept alive after its stream, the connection held a shutdown open for Fastify's keep-alive timeout (72 s).
    const token = await t.login(doctorA.username, doctorA.password);
    const agent = new http.Agent({ keepAlive: true });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(`${base}/api/events`, { agent, headers: { authorization: `Bearer ${token}` } }, resolve)
        .on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    const closed = new Promise((resolve) => response.socket.on('close', resolve));
    response.resume();
    expect((await t.as(token, { method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
    await closed;
    agent.destroy();
  });

  it('ends a stream at the next session check once its token is refused (ended by another process)', async () => {
    const other = await createStaff(t, [1]);
    const s = await stream(other.token);
    expect(s.status).toBe(200);
    // A session ended elsewhere (another process deleted its row) is found by the periodic check.
    const { jti } = (await t.app.tokens.verify(other.token))!;
    await t.app.db.delete(sessions).where(eq(sessions.sessionId, jti));
    await s.ended;
  });

  it("holds at most 10 streams a user: the next one ends that user's oldest, and no one else's (issue 20)", async () => {
    const flooder = await createCaseDoctor(t);
    const bystander = await stream(doctorA.token);
    const before = t.app.events.openStreams;
    const first = await stream(flooder.token);
    for (let index = 1; index < maxStreamsPerUser; index++) await stream(flooder.token);
    expect(t.app.events.openStreams).toBe(before + maxStreamsPerUser);
    // One more, with a second sign-in of the same user: the cap is the user's, not the token's.
    const newest = await stream(await t.login(flooder.username, flooder.password));
    expect(newest.status).toBe(200);
    await first.ended;
    // Still ten of the user's, and another user's stream was not touched.
    expect(t.app.events.openStreams).toBe(before + maxStreamsPerUser);
    expect(bystander.status).toBe(200);
  });

  it('ends every stream when the server shuts down, and shutdown does not wait on them', async () => {
    const other = await createTestApp();
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await other.adminToken();
    const streams = await Promise.all(
      [1, 2, 3].map(() => openEventStream(`${url}/api/events`, { authorization: `Bearer ${token}` })),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(other.app.events.openStreams).toBe(3);
    const started = Date.now();
    await other.close();
    await Promise.all(streams.map((s) => s.ended));
    // Without ending them, close() would wait for the streams for ever.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('GET /api/events: access taken away ends the stream at once', () => {
  // The periodic session check is an hour away here: only the change itself can end the streams.
  let r: TestApp;
  let url: string;
  let admin: string;
  beforeAll(async () => {
    r = await createTestApp({ events: { sessionCheckMs: 3_600_000 } });
    url = `${await r.app.listen({ port: 0, host: '127.0.0.1' })}/api/events`;
    admin = await r.adminToken();
  }, scaled(60_000));
  afterAll(() => r?.close());

  /** A stream open on the server (its `connected` line read), closed by the test if the server does not end it. */
  async function openStream(token: string) {
    const reader = await openEventStream(url, { authorization: `Bearer ${token}` });
    open.push(reader);
    expect(reader.status).toBe(200);
    await expect.poll(() => reader.comments).toContain('connected');
    return reader;
  }
  /** The stream ends well before the periodic check would (an hour); 10 s is a budget, not the expected time. */
  const endsSoon = (reader: EventStreamReader) =>
    Promise.race([
      reader.ended.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000).unref()),
    ]);
  const editStaff = (staffUser: Awaited<ReturnType<typeof createStaff>>, changes: Record<string, string | number>) =>
    r.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${staffUser.userId}`,
      payload: formData({
        username: staffUser.username,
        firstname: 'Sam',
        lastname: 'Staff',
        password: '',
        email: `${staffUser.username}@lab.test`,
        mobileNo: '5550101',
        roleId: staffUser.roleId,
        userType: 'Web',
        ...changes,
      }),
    });

  it('when the Dashboard page is taken from their role, and not the streams of staff who keep it', async () => {
    const losing = await createStaff(r, [1]);
    const keeping = await createStaff(r, [1]);
    const [losingStream, keepingStream] = [await openStream(losing.token), await openStream(keeping.token)];
    const revoked = await r.as(admin, { method: 'DELETE', url: `/api/permission/delete/${losing.roleId}/1` });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await endsSoon(losingStream)).toBe('ended');
    // Checked again, the stream of staff who keep the page goes on.
    expect(r.app.events.openStreams).toBe(1);
    keepingStream.close();
  });

  it('when their password is changed, their role changed to one without the page, or they are deleted', async () => {
    const withoutDashboard = await createStaff(r, [4]);
    const changes: [string, (staffUser: Awaited<ReturnType<typeof createStaff>>) => Promise<{ statusCode: number }>][] =
      [
        ['password', (staffUser) => editStaff(staffUser, { password: 'a-new-staff-passphrase' })],
        ['role', (staffUser) => editStaff(staffUser, { roleId: withoutDashboard.roleId })],
        ['delete', (staffUser) => r.as(admin, { method: 'DELETE', url: `/api/user/delete/${staffUser.userId}` })],
      ];
    for (const [label, change] of changes) {
      const staffUser = await createStaff(r, [1]);
      const reader = await openStream(staffUser.token);
      expect((await change(staffUser)).statusCode, label).toBe(200);
      expect(await endsSoon(reader), label).toBe('ended');
    }
  });

  it("when a doctor's account is deactivated", async () => {
    const doctor = await createCaseDoctor(r);
    const reader = await openStream(doctor.token);
    const deactivated = await r.as(admin, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(await doctorEditFields(r, doctor, { isActive: 'false' })),
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(await endsSoon(reader)).toBe('ended');
  });
});
