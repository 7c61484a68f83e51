import type { SignedInSession } from '@portal/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, sessions } from '../src/db/schema.ts';
import type { BusMessage } from '../src/events/bus.ts';
import { sweepLeftovers } from '../src/services/housekeeping.ts';
import { startSession } from '../src/services/sessions.ts';
import { openEventStream } from './helpers/event-stream.ts';
import { createDoctor, createStaff, staffPassword, type CreatedDoctor } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * docs/quality/sign-in.md, Sessions: signed-in devices (docs/decisions/sign-in-and-sessions.md § Sessions). Each
 * ended session's token is tried again on a real signed-in route at once.
 */

let t: TestApp;
let doctor: CreatedDoctor;
/** The app on a real socket, for event streams. */
let base: string;

const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  // The periodic check of event streams never runs during the test: a stream that ends was ended at once.
  t = await createTestApp({ events: { sessionCheckMs: 3_600_000 } });
  doctor = await createDoctor(t, { active: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** Signs in from a device: an address and a browser. */
async function signIn(
  account: { username: string; password: string },
  device: { address?: string; userAgent?: string } = {},
): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: account.username, password: account.password },
    remoteAddress: device.address ?? '127.0.0.1',
    headers: device.userAgent ? { 'user-agent': device.userAgent } : {},
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

const sessionIdOf = async (token: string) => (await t.app.tokens.verify(token))!.jti;

/** A signed-in route every user may call: 200 while the token's session lasts. */
const statusWith = async (token: string) =>
  (await t.as(token, { method: 'GET', url: '/api/auth/sessions' })).statusCode;

const mySessions = async (token: string) => {
  const response = await t.as(token, { method: 'GET', url: '/api/auth/sessions' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SignedInSession[]>();
};

/** The newest audit row of an action (written just after the answer, so waited for). */
const auditRow = (action: string, target: string) =>
  vi.waitFor(
    async () => {
      const [row] = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.target, target)));
      if (!row) throw new Error(`no audit row ${action} ${target}`);
      return row;
    },
    { timeout: scaled(5000), interval: 20 },
  );

describe('GET /api/auth/sessions', () => {
  it('lists a sign-in with its address and browser, the asking session marked current', async () => {
    const staff = await createStaff(t, []);
    const laptop = await signIn(
      { username: staff.username, password: staffPassword },
      { address: '203.0.113.9', userAgent: chromeOnWindows },
    );
    const phone = await signIn(
      { username: staff.username, password: staffPassword },
      { address: '198.51.100.7', userAgent: safariOnIphone },
    );
    const listed = await mySessions(laptop);
    const byId = new Map(listed.map((session) => [session.sessionId, session]));
    expect(byId.get(await sessionIdOf(laptop))).toMatchObject({
      address: '203.0.113.9',
      userAgent: chromeOnWindows,
      device: 'Chrome 131 on Windows',
      isCurrent: true,
    });
    expect(byId.get(await sessionIdOf(phone))).toMatchObject({
      address: '198.51.100.7',
      device: 'Safari 17 on iOS',
      isCurrent: false,
    });
    const current = byId.get(await sessionIdOf(laptop))!;
    expect(Date.now() - Date.parse(current.createdAt)).toBeLessThan(60_000);
    expect(Date.parse(current.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(current.createdAt));
    // The one from the staff's createStaff sign-in too: newest first.
    expect(listed.map((session) => session.sessionId)).toEqual([
      await sessionIdOf(phone),
      await sessionIdOf(laptop),
      await sessionIdOf(staff.token),
    ]);
  });

  it('keeps a User-Agent to 512 characters, without control characters', async () => {
    const token = await signIn(doctor, { userAgent: `Odd\u0000Agent\t${'x'.repeat(600)}` });
    const [session] = (await mySessions(token)).filter((listed) => listed.isCurrent);
    expect(session!.userAgent).toBe(`OddAgent${'x'.repeat(504)}`);
  });

  it('no longer lists the sessions a password change ended', async () => {
    const staff = await createStaff(t, []);
    const before = await signIn({ username: staff.username, password: staffPassword });
    await t.app.db.execute(sql`update users set token_version = token_version + 1 where user_id = ${staff.userId}`);
    expect(await statusWith(before)).toBe(401);
    const after = await signIn({ username: staff.username, password: staffPassword });
    expect((await mySessions(after)).map((session) => session.sessionId)).toEqual([await sessionIdOf(after)]);
  });
});

describe('DELETE /api/auth/sessions/:sessionId', () => {
  it("ends one of the caller's sessions: its token is refused at once, the caller's goes on", async () => {
    const laptop = await signIn(doctor);
    const phone = await signIn(doctor);
    expect(await statusWith(phone)).toBe(200);
    const response = await t.as(laptop, { method: 'DELETE', url: `/api/auth/sessions/${await sessionIdOf(phone)}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: '1 session ended', ended: 1 });
    expect(await statusWith(phone)).toBe(401);
    expect((await t.as(phone, { method: 'GET', url: '/api/case/get_cases_by_status/all/0' })).statusCode).toBe(401);
    expect(await statusWith(laptop)).toBe(200);
    const row = await auditRow('session.end', `user:${doctor.userId}`);
    expect(row).toMatchObject({ actorUserId: doctor.userId, outcome: 'success' });
  });

  it("answers 404 for another user's session, even to the administrator, and leaves it alone", async () => {
    const doctorsPhone = await signIn(doctor);
    const id = await sessionIdOf(doctorsPhone);
    const staff = await createStaff(t, [4]);
    for (const token of [staff.token, await t.adminToken()]) {
      const response = await t.as(token, { method: 'DELETE', url: `/api/auth/sessions/${id}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Session not found', code: 'notFound', params: { what: 'Session' } });
    }
    expect(await statusWith(doctorsPhone)).toBe(200);
  });

  it('answers 404 for an unknown or already ended session and 400 for an id that is not one', async () => {
    const laptop = await signIn(doctor);
    const phone = await signIn(doctor);
    const url = `/api/auth/sessions/${await sessionIdOf(phone)}`;
    expect((await t.as(laptop, { method: 'DELETE', url })).statusCode).toBe(200);
    expect((await t.as(laptop, { method: 'DELETE', url })).statusCode).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.as(laptop, { method: 'DELETE', url: `/api/auth/sessions/${unknown}` })).statusCode).toBe(404);
    const bad = await t.as(laptop, { method: 'DELETE', url: '/api/auth/sessions/not-a-session' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Session id is not valid/);
  });

  it("closes the ended session's live event stream at once", async () => {
    const laptop = await signIn(doctor);
    const phone = await signIn(doctor);
    const stream = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${phone}` });
    expect(stream.status).toBe(200);
    const kept = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${laptop}` });
    expect(kept.status).toBe(200);
    expect(
      (await t.as(laptop, { method: 'DELETE', url: `/api/auth/sessions/${await sessionIdOf(phone)}` })).statusCode,
    ).toBe(200);
    // The periodic check is an hour away: only the end itself can have closed it.
    await stream.ended;
    expect(t.app.events.openStreams).toBe(1);
    kept.close();
  });

  it('tells the other processes through the bus, and closes the streams of a session another process ended', async () => {
    const heard: BusMessage[] = [];
    const unsubscribe = t.app.events.bus.subscribe((message) => heard.push(message));
    const laptop = await signIn(doctor);
    const phone = await signIn(doctor);
    const phoneId = await sessionIdOf(phone);
    expect((await t.as(laptop, { method: 'DELETE', url: `/api/auth/sessions/${phoneId}` })).statusCode).toBe(200);
    await vi.waitFor(() => expect(heard).toContainEqual({ endedSessionIds: [phoneId] }), { timeout: scaled(10_000) });
    unsubscribe();

    // Another process ended this one: its row is gone, and the bus brings the word.
    const tablet = await signIn(doctor);
    const stream = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${tablet}` });
    expect(stream.status).toBe(200);
    const tabletId = await sessionIdOf(tablet);
    await t.app.db.delete(sessions).where(eq(sessions.sessionId, tabletId));
    await t.app.events.bus.publish({ endedSessionIds: [tabletId] });
    await stream.ended;
  });
});

describe('POST /api/auth/sessions/end_others', () => {
  it('ends every other session of the caller and keeps the current one', async () => {
    const staff = await createStaff(t, []);
    const account = { username: staff.username, password: staffPassword };
    const others = [staff.token, await signIn(account), await signIn(account)];
    const current = await signIn(account);
    const bystander = await signIn(doctor);
    const response = await t.as(current, { method: 'POST', url: '/api/auth/sessions/end_others' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: '3 sessions ended', ended: 3 });
    for (const token of others) expect(await statusWith(token)).toBe(401);
    expect(await statusWith(current)).toBe(200);
    expect(await statusWith(bystander)).toBe(200);
    expect((await mySessions(current)).map((session) => session.sessionId)).toEqual([await sessionIdOf(current)]);
    await auditRow('session.end_others', `user:${staff.userId}`);
  });

  it('tells the other processes of 250 ended sessions in messages a PostgreSQL NOTIFY can carry', async () => {
    const staff = await createStaff(t, []);
    const holder = { userId: staff.userId, roleId: staff.roleId, userType: 'Web' as const, tokenVersion: 0 };
    const context = { ip: '127.0.0.1', userAgent: 'load' };
    for (let i = 0; i < 250; i++) await startSession(t.app.db, t.app.tokens, holder, context);
    const heard: string[] = [];
    const unsubscribe = t.app.events.bus.subscribe((message) => {
      if ('endedSessionIds' in message) heard.push(...message.endedSessionIds);
    });
    const response = await t.as(staff.token, { method: 'POST', url: '/api/auth/sessions/end_others' });
    expect(response.json()).toMatchObject({ ended: 250 });
    // On the PostgreSQL pass the bus is NOTIFY, which refuses a payload over 8000 bytes.
    await vi.waitFor(() => expect(heard).toHaveLength(250), { timeout: scaled(10_000) });
    unsubscribe();
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session it is made with, and no other', async () => {
    const laptop = await signIn(doctor);
    const phone = await signIn(doctor);
    expect((await t.as(phone, { method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
    expect(await statusWith(phone)).toBe(401);
    const listed = (await mySessions(laptop)).map((session) => session.sessionId);
    expect(listed).toContain(await sessionIdOf(laptop));
    expect(listed).not.toContain(await sessionIdOf(phone));
    expect(
      await t.app.db
        .select()
        .from(sessions)
        .where(eq(sessions.sessionId, await sessionIdOf(phone))),
    ).toEqual([]);
  });
});

describe('last seen', () => {
  const rowOf = async (token: string) => {
    const [row] = await t.app.db
      .select({ lastSeenAt: sessions.lastSeenAt, address: sessions.address })
      .from(sessions)
      .where(eq(sessions.sessionId, await sessionIdOf(token)));
    return row!;
  };
  const requestFrom = (token: string, address: string) =>
    t.as(token, { method: 'GET', url: '/api/auth/sessions', remoteAddress: address });

  it('moves with a request a minute or more after the last one, not with every request', async () => {
    const token = await signIn(doctor, { address: '192.0.2.1' });
    const started = await rowOf(token);
    for (const address of ['192.0.2.2', '192.0.2.3', '192.0.2.4']) {
      expect((await requestFrom(token, address)).statusCode).toBe(200);
    }
    // Within the minute nothing was written: neither the time nor the address.
    expect(await rowOf(token)).toEqual(started);

    // As if the last request were two minutes ago.
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '2 minutes'` })
      .where(eq(sessions.sessionId, await sessionIdOf(token)));
    const before = new Date();
    expect((await requestFrom(token, '192.0.2.5')).statusCode).toBe(200);
    const moved = await rowOf(token);
    expect(moved.address).toBe('192.0.2.5');
    expect(moved.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect((await requestFrom(token, '192.0.2.6')).statusCode).toBe(200);
    expect(await rowOf(token)).toEqual(moved);
  });
});

describe("a user's sessions (the Users page)", () => {
  it('the administrator lists and ends every session of a Web user; their tokens are refused at once', async () => {
    const admin = await t.adminToken();
    const staff = await createStaff(t, [1]);
    const second = await signIn({ username: staff.username, password: staffPassword }, { userAgent: safariOnIphone });
    const listed = await t.as(admin, { method: 'GET', url: `/api/user/${staff.userId}/sessions` });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<SignedInSession[]>().map((session) => [session.device, session.isCurrent])).toEqual([
      ['Safari 17 on iOS', false],
      // app.inject's own User-Agent, which names no browser or system: shown as it is.
      ['lightMyRequest', false],
    ]);
    const ended = await t.as(admin, { method: 'DELETE', url: `/api/user/${staff.userId}/sessions` });
    expect(ended.json()).toEqual({ message: '2 sessions ended', ended: 2 });
    expect(await statusWith(staff.token)).toBe(401);
    expect(await statusWith(second)).toBe(401);
    expect(await statusWith(admin)).toBe(200);
    const row = await auditRow('user.sessions_end', `user:${staff.userId}`);
    expect(row.outcome).toBe('success');
  });

  it("Users-page staff cannot list or end the administrator's sessions, nor a stronger account's", async () => {
    const admin = await t.adminToken();
    const usersStaff = await createStaff(t, [4]);
    const stronger = await createStaff(t, [1, 4]);
    const adminUserId = Number((await t.app.tokens.verify(admin))!.sub);
    for (const userId of [adminUserId, stronger.userId]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const response = await t.as(usersStaff.token, { method, url: `/api/user/${userId}/sessions` });
        expect(response.statusCode, `${method} ${userId}`).toBe(403);
      }
    }
    expect(await statusWith(admin)).toBe(200);
    expect(await statusWith(stronger.token)).toBe(200);
    await auditRow('user.sessions_end', `user:${adminUserId}`).then((row) => expect(row.outcome).toBe('refused'));
  });

  it('lets Users-page staff end the sessions of a user whose role has only pages they have', async () => {
    const usersStaff = await createStaff(t, [1, 4]);
    const weaker = await createStaff(t, [1]);
    const response = await t.as(usersStaff.token, { method: 'DELETE', url: `/api/user/${weaker.userId}/sessions` });
    expect(response.statusCode, response.body).toBe(200);
    expect(await statusWith(weaker.token)).toBe(401);
  });

  it('answers 404 for a doctor, a deleted user and an unknown id', async () => {
    const admin = await t.adminToken();
    const gone = await createStaff(t, []);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${gone.userId}` })).statusCode).toBe(200);
    for (const userId of [doctor.userId, gone.userId, 999_999]) {
      const response = await t.as(admin, { method: 'DELETE', url: `/api/user/${userId}/sessions` });
      expect(response.statusCode, String(userId)).toBe(404);
      expect(response.json()).toEqual({ message: 'User not found', code: 'notFound', params: { what: 'User' } });
    }
    expect(await statusWith(await signIn(doctor))).toBe(200);
  });
});

describe('the periodic sweep', () => {
  it('deletes the rows of expired sessions and of those from an earlier token version, and no others', async () => {
    const staff = await createStaff(t, []);
    const account = { username: staff.username, password: staffPassword };
    const [expired, live] = [await signIn(account), await signIn(account)];
    await t.app.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.sessionId, await sessionIdOf(expired)));
    const changedPassword = await createStaff(t, []);
    await t.app.db.execute(
      sql`update users set token_version = token_version + 1 where user_id = ${changedPassword.userId}`,
    );
    const counts = await sweepLeftovers(
      { database: t.app.database, storage: t.app.storage, log: t.app.log },
      { graceSeconds: 86_400 },
    );
    expect(counts.deadSessions).toBeGreaterThanOrEqual(2);
    const left = async (token: string) =>
      (
        await t.app.db
          .select()
          .from(sessions)
          .where(eq(sessions.sessionId, await sessionIdOf(token)))
      ).length;
    expect([await left(expired), await left(changedPassword.token), await left(live)]).toEqual([0, 0, 1]);
    expect(await statusWith(live)).toBe(200);
  });
});
