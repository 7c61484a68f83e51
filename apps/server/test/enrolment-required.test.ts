import { messages } from '@portal/contract';
import { generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeys, totpFactors } from '../src/db/schema.ts';
import { createDoctor, createStaff } from './helpers/factories.ts';
import { openEventStream, type EventStreamReader } from './helpers/event-stream.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/second-step-lock-and-enrolment.md: a session opened before its user's role came
 * to require a second factor must enrol at its next request, not when it expires.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rolesList = { method: 'GET', url: '/api/role/get_roles_list' } as const;

async function requireForRole(roleId: number, required: boolean) {
  const response = await t.as(await t.adminToken(), {
    method: 'PUT',
    url: `/api/role/second-factor/${roleId}`,
    payload: { required },
  });
  expect(response.statusCode).toBe(200);
}

/** A confirmed authenticator app, as an enrolment leaves it. */
const giveApp = (userId: number) =>
  t.app.db.insert(totpFactors).values({ userId, secret: generateSecret(), confirmedAt: new Date() });

describe('a session from before its role required a second factor', () => {
  it('is answered 403 "set one up" at its next request, and works again once a factor is set up', async () => {
    const staff = await createStaff(t, [1, 2]);
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(200);
    await requireForRole(staff.roleId, true);

    const refused = await t.as(staff.token, rolesList);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.enrolmentRequired);
    const cookie = await t.app.inject({ ...rolesList, cookies: { token: staff.token } });
    expect(cookie.statusCode).toBe(403);

    // What enrolling needs stays open: the factors, the enrolment's first step.
    const factors = await t.as(staff.token, { method: 'GET', url: '/api/account/second-factor' });
    expect(factors.statusCode).toBe(200);
    expect(factors.json()).toMatchObject({ isRequired: true, hasTotp: false, passkeys: [] });
    const options = await t.as(staff.token, { method: 'POST', url: '/api/account/second-factor/passkey/options' });
    expect(options.json().message).not.toBe(messages.enrolmentRequired);

    await giveApp(staff.userId);
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(200);
  });

  it('counts a passkey as a factor', async () => {
    const staff = await createStaff(t, [1, 2]);
    await requireForRole(staff.roleId, true);
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(403);
    await t.app.db.insert(passkeys).values({
      userId: staff.userId,
      credentialId: `credential-${staff.userId}`,
      publicKey: 'AQID',
      name: 'Laptop',
    });
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(200);
  });

  it('may still sign out', async () => {
    const staff = await createStaff(t, [1, 2]);
    await requireForRole(staff.roleId, true);
    const out = await t.as(staff.token, { method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(200);
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(401);
  });

  it('works again when the role no longer requires one, and leaves users with a factor alone', async () => {
    const staff = await createStaff(t, [1, 2]);
    const enrolled = await createStaff(t, [1, 2]);
    await giveApp(enrolled.userId);
    await requireForRole(staff.roleId, true);
    await requireForRole(enrolled.roleId, true);
    expect((await t.as(enrolled.token, rolesList)).statusCode).toBe(200);
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(403);
    await requireForRole(staff.roleId, false);
    expect((await t.as(staff.token, rolesList)).statusCode).toBe(200);
  });

  it("refuses a doctor's session too when the doctors' role comes to require one", async () => {
    const doctor = await createDoctor(t, { active: true });
    const doctorToken = doctor.token!;
    const ownCases = { method: 'GET', url: `/api/case/get_all_stats/${doctor.userId}` } as const;
    expect((await t.as(doctorToken, ownCases)).statusCode).toBe(200);
    await requireForRole(19, true);
    try {
      const refused = await t.as(doctorToken, ownCases);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(messages.enrolmentRequired);
    } finally {
      await requireForRole(19, false);
    }
  });
});

describe('a live-event stream from before its role required a second factor', () => {
  let e: TestApp;
  let base: string;
  const open: EventStreamReader[] = [];
  beforeAll(async () => {
    e = await createTestApp({ events: { heartbeatMs: 200, sessionCheckMs: 300 } });
    base = await e.app.listen({ port: 0, host: '127.0.0.1' });
  });
  // A stream still open (a failed test) would hold the app's close.
  afterAll(async () => {
    for (const stream of open) stream.close();
    await e.close();
  });

  it('ends at the next session check, and is refused when opened again', async () => {
    const staff = await createStaff(e, [1, 2]);
    const headers = { authorization: `Bearer ${staff.token}` };
    const stream = await openEventStream(`${base}/api/events`, headers);
    open.push(stream);
    expect(stream.status).toBe(200);
    const required = await e.as(await e.adminToken(), {
      method: 'PUT',
      url: `/api/role/second-factor/${staff.roleId}`,
      payload: { required: true },
    });
    expect(required.statusCode).toBe(200);
    await stream.ended;
    const again = await openEventStream(`${base}/api/events`, headers);
    again.close();
    expect(again.status).toBe(403);
  });
});
