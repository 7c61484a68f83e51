import { secondFactorMessages } from '@portal/contract';
import { and, eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, sessions } from '../src/db/schema.ts';
import { createDoctor, createStaff, mailedResetToken, outboxMessages, staffPassword } from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/second-factor-changes.md: a session alone does not change a second factor
 * (issue 40, Security 1). Every change needs a fresh proof on the session and is mailed to
 * the owner; the lab can reset a user's factors; a password reset mail lists the factors left.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

type Staff = Awaited<ReturnType<typeof createStaff>>;

const post = (token: string | null, url: string, payload?: object) =>
  t.as(token, { method: 'POST', url, ...(payload && { payload }) });
const del = (token: string, url: string) => t.as(token, { method: 'DELETE', url });
const emailOf = (staff: { username: string }) => `${staff.username}@lab.test`;

/** The code an app shows `stepsAhead` time steps from now (one step either side is accepted). */
const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

const prove = (token: string, proof: object = { password: staffPassword }) =>
  post(token, '/api/account/reauthenticate', proof);

/** Proves with the password, then sets up an authenticator app (codes at the current step). */
async function enrolTotp(token: string) {
  expect((await prove(token)).statusCode).toBe(200);
  const started = await post(token, '/api/account/second-factor/totp');
  expect(started.statusCode).toBe(200);
  const { secret } = started.json<{ secret: string }>();
  const confirmed = await post(token, '/api/account/second-factor/totp/confirm', { code: await codeFor(secret) });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** A second session of a user with an app: password, then the code one step ahead. No proof given on it. */
async function signInWithCode(username: string, secret: string): Promise<string> {
  const first = await post(null, '/api/auth/login', { username, password: staffPassword });
  const { interimToken } = first.json<{ interimToken: string }>();
  const second = await post(null, '/api/auth/second-factor/totp', { interimToken, code: await codeFor(secret, 1) });
  expect(second.statusCode).toBe(200);
  return second.json<{ token: string }>().token;
}

/** A session signed in with a recovery code (the app's codes stay unused). */
async function signInWithRecovery(username: string, code: string): Promise<string> {
  const first = await post(null, '/api/auth/login', { username, password: staffPassword });
  const { interimToken } = first.json<{ interimToken: string }>();
  const second = await post(null, '/api/auth/second-factor/recovery', { interimToken, code });
  expect(second.statusCode).toBe(200);
  return second.json<{ token: string }>().token;
}

const factorsOf = async (token: string) =>
  (await t.as(token, { method: 'GET', url: '/api/account/second-factor' })).json<{
    hasTotp: boolean;
    recoveryCodesLeft: number;
    passkeys: unknown[];
  }>();

/** What reached one address, once the outbox has run. */
async function mailsTo(email: string): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`)).map(readableMail);
}
const changeMails = async (email: string) =>
  (await mailsTo(email)).filter((mail) => mail.includes('Subject: Your Aligner Portal second factor was changed'));

async function requireForRole(roleId: number, required: boolean) {
  const response = await t.as(admin, {
    method: 'PUT',
    url: `/api/role/second-factor/${roleId}`,
    payload: { required },
  });
  expect(response.statusCode).toBe(200);
}

describe('a change of a second factor with a session alone (the red team’s repro)', () => {
  let staff: Staff;
  let secret: string;
  let stolen: string;
  beforeAll(async () => {
    staff = await createStaff(t, []);
    ({ secret } = await enrolTotp(staff.token));
    stolen = await signInWithCode(staff.username, secret);
  });

  it('refuses adding a passkey, removing the app and new recovery codes with 403 and the stable message', async () => {
    const attempts = [
      await post(stolen, '/api/account/second-factor/passkey/options'),
      await post(stolen, '/api/account/second-factor/passkey', {
        credential: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {} },
      }),
      await del(stolen, '/api/account/second-factor/totp'),
      await post(stolen, '/api/account/second-factor/recovery-codes'),
      await post(stolen, '/api/account/second-factor/totp'),
      await post(stolen, '/api/account/second-factor/totp/confirm', { code: '123456' }),
    ];
    for (const [index, response] of attempts.entries()) {
      expect(response.statusCode, `attempt ${index + 1}`).toBe(403);
      expect(response.json()).toEqual({ message: secondFactorMessages.proofRequired });
    }
    expect(await factorsOf(stolen)).toMatchObject({ hasTotp: true, recoveryCodesLeft: 10, passkeys: [] });
  });

  it('refuses a wrong password or code as a proof (403, the field named), and the change stays refused', async () => {
    const wrong = await prove(stolen, { password: 'a-guess' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({
      message: secondFactorMessages.proofRejected,
      fieldErrors: { password: secondFactorMessages.proofRejected },
    });
    const wrongCode = await prove(stolen, { code: '000000' });
    expect(wrongCode.statusCode).toBe(403);
    expect(wrongCode.json().fieldErrors).toEqual({ code: secondFactorMessages.proofRejected });
    expect((await post(stolen, '/api/account/second-factor/recovery-codes')).statusCode).toBe(403);
  });

  it('takes exactly one proof (400 for none or two)', async () => {
    expect((await prove(stolen, {})).statusCode).toBe(400);
    const two = await prove(stolen, { password: staffPassword, code: '123456' });
    expect(two.statusCode).toBe(400);
    expect(two.json().fieldErrors.password).toMatch(/password or a code/);
  });
});

describe('proof throttling', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ loginAttemptsPerAccountAndAddress: 3, loginAttemptsPerAccount: 5 });
  });
  afterAll(() => limited.close());

  it('answers 429 after too many wrong passwords on one session, even to the right one: a session is no way around the sign-in limits', async () => {
    const staff = await createStaff(limited, []);
    const attempt = (password: string) =>
      limited.as(staff.token, { method: 'POST', url: '/api/account/reauthenticate', payload: { password } });
    const statuses = [];
    for (let guess = 0; guess < 3; guess++) statuses.push((await attempt(`guess-${guess}`)).statusCode);
    expect(statuses).toEqual([403, 403, 403]);
    const right = await attempt(staffPassword);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
  });
});

describe('with a fresh proof', () => {
  it('changes the factors after the password, mails the owner at each change, and the proof stays with its session', async () => {
    const staff = await createStaff(t, []);
    const { secret, recoveryCodes } = await enrolTotp(staff.token);
    const session = await signInWithCode(staff.username, secret);
    const other = await signInWithRecovery(staff.username, recoveryCodes[0]!);
    const proved = await prove(session);
    expect(proved.statusCode).toBe(200);
    const { validUntil } = proved.json<{ validUntil: string }>();
    const minutesLeft = (Date.parse(validUntil) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(4);
    expect(minutesLeft).toBeLessThanOrEqual(5.1);

    expect((await post(session, '/api/account/second-factor/passkey/options')).statusCode).toBe(200);
    const renewed = await post(session, '/api/account/second-factor/recovery-codes');
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    // Another session of the same user has proved nothing.
    expect((await del(other, '/api/account/second-factor/totp')).statusCode).toBe(403);
    expect((await del(session, '/api/account/second-factor/totp')).statusCode).toBe(200);
    expect(await factorsOf(session)).toMatchObject({ hasTotp: false, recoveryCodesLeft: 0 });

    const mails = await changeMails(emailOf(staff));
    const text = mails.join('\n');
    expect(mails).toHaveLength(3);
    expect(text).toContain('An authenticator app was added');
    expect(text).toContain('New recovery codes were made');
    expect(text).toContain('The authenticator app was removed');
    expect(text).toMatch(/When: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(text).toContain('Device: ');
    expect(text).toContain('Address: 127.0.0.1');
    expect(text).toContain('If this was not you');
  });

  it('takes a code from the authenticator app as the proof', async () => {
    const staff = await createStaff(t, []);
    const { secret, recoveryCodes } = await enrolTotp(staff.token);
    const session = await signInWithRecovery(staff.username, recoveryCodes[0]!);
    expect((await post(session, '/api/account/second-factor/recovery-codes')).statusCode).toBe(403);
    // The confirmation used the current step's code; the app's next one is a step later.
    expect((await prove(session, { code: await codeFor(secret, 1) })).statusCode).toBe(200);
    expect((await post(session, '/api/account/second-factor/recovery-codes')).statusCode).toBe(200);
  });

  it('expires: a proof older than 5 minutes no longer lets a change through', async () => {
    const staff = await createStaff(t, []);
    expect((await prove(staff.token)).statusCode).toBe(200);
    expect((await post(staff.token, '/api/account/second-factor/totp')).statusCode).toBe(200);
    // Five minutes and a second pass (the clock the check reads is the database's).
    await t.app.db
      .update(sessions)
      .set({ provedAt: sql`${sessions.provedAt} - interval '301 seconds'` })
      .where(eq(sessions.userId, staff.userId));
    const late = await post(staff.token, '/api/account/second-factor/totp');
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe(secondFactorMessages.proofRequired);
  });

  it('has a session whose role came to require a factor prove itself before enrolling, which it may', async () => {
    const staff = await createStaff(t, []);
    await requireForRole(staff.roleId, true);
    const unproved = await post(staff.token, '/api/account/second-factor/totp');
    expect(unproved.json()).toEqual({ message: secondFactorMessages.proofRequired });
    expect((await post(staff.token, '/api/account/reauthenticate/passkey/options')).statusCode).toBe(200);
    expect((await prove(staff.token)).statusCode).toBe(200);
    const started = await post(staff.token, '/api/account/second-factor/totp');
    expect(started.statusCode).toBe(200);
    const { secret } = started.json<{ secret: string }>();
    const confirmed = await post(staff.token, '/api/account/second-factor/totp/confirm', {
      code: await codeFor(secret),
    });
    expect(confirmed.statusCode).toBe(200);
  });

  it('lets a user enrolling during sign-in set up a factor without another prompt, and mails them', async () => {
    const staff = await createStaff(t, []);
    await requireForRole(staff.roleId, true);
    const login = await post(null, '/api/auth/login', { username: staff.username, password: staffPassword });
    const { interimToken, secondFactor } = login.json<{ interimToken: string; secondFactor: string }>();
    expect(secondFactor).toBe('enrol');
    const started = await post(interimToken, '/api/account/second-factor/totp');
    expect(started.statusCode).toBe(200);
    const { secret } = started.json<{ secret: string }>();
    const confirmed = await post(interimToken, '/api/account/second-factor/totp/confirm', {
      code: await codeFor(secret),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().signIn.token).toEqual(expect.any(String));
    expect((await post(interimToken, '/api/account/second-factor/passkey/options')).statusCode).toBe(401);
    expect((await changeMails(emailOf(staff))).join('\n')).toContain('An authenticator app was added');
  });
});

/** The newest audit row of an action on a target; rows are written just after the answer. */
const auditRow = (action: string, target: string) =>
  vi.waitFor(
    async () => {
      const [row] = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
        .orderBy(sql`${auditLog.auditId} desc`)
        .limit(1);
      if (!row) throw new Error(`no ${action} row for ${target}`);
      return row;
    },
    { timeout: 15_000, interval: 20 },
  );

const reset = (token: string, userId: number) => post(token, `/api/user/${userId}/second-factor/reset`);

describe('POST /api/user/:id/second-factor/reset', () => {
  it('by the administrator: factors and codes gone, sessions ended, enrolment at the next sign-in, audited and mailed', async () => {
    const staff = await createStaff(t, [1]);
    const { secret } = await enrolTotp(staff.token);
    await requireForRole(staff.roleId, true);
    const otherDevice = await signInWithCode(staff.username, secret);

    const response = await reset(admin, staff.userId);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(secondFactorMessages.reset);
    for (const token of [staff.token, otherDevice]) {
      expect((await t.as(token, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(401);
    }
    const login = await post(null, '/api/auth/login', { username: staff.username, password: staffPassword });
    expect(login.json()).toMatchObject({ secondFactor: 'enrol', methods: [] });
    const { interimToken } = login.json<{ interimToken: string }>();
    expect(await factorsOf(interimToken)).toMatchObject({ hasTotp: false, recoveryCodesLeft: 0, passkeys: [] });

    const row = await auditRow('user.second_factor_reset', `user:${staff.userId}`);
    expect(row).toMatchObject({ outcome: 'success', statusCode: 200, actorName: testAdmin.username });
    const mail = (await mailsTo(emailOf(staff))).find((raw) => raw.includes('second factor was reset'));
    expect(mail).toContain('asked to set up a second factor again');
    expect(mail).toContain('signed out everywhere');
  });

  it("by the administrator, a doctor's too", async () => {
    const doctor = await createDoctor(t, { active: true });
    expect((await reset(admin, doctor.userId)).statusCode).toBe(200);
    expect((await t.as(doctor.token!, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(401);
  });

  it('by Users-page staff: a weaker Web user yes; a stronger one or the administrator 403, a doctor 404, changing nothing', async () => {
    const manager = await createStaff(t, [4]);
    const weaker = await createStaff(t, []);
    await enrolTotp(weaker.token);
    expect((await reset(manager.token, weaker.userId)).statusCode).toBe(200);
    expect((await t.as(weaker.token, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(401);
    expect((await auditRow('user.second_factor_reset', `user:${weaker.userId}`)).actorUserId).toBe(manager.userId);

    const stronger = await createStaff(t, [1, 4]);
    await enrolTotp(stronger.token);
    const refused = await reset(manager.token, stronger.userId);
    expect(refused.statusCode).toBe(403);
    expect(await factorsOf(stronger.token)).toMatchObject({ hasTotp: true, recoveryCodesLeft: 10 });
    const adminUserId = (await t.app.tokens.verify(admin))!.sub;
    expect((await reset(manager.token, Number(adminUserId))).statusCode).toBe(403);
    const doctor = await createDoctor(t, { active: true });
    expect((await reset(manager.token, doctor.userId)).statusCode).toBe(404);
    expect((await t.as(doctor.token!, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(200);
    expect((await reset(manager.token, 99_999_999)).statusCode).toBe(404);
    expect((await auditRow('user.second_factor_reset', `user:${stronger.userId}`)).outcome).toBe('refused');
  });

  it('refuses one’s own (409): that would be a change with the session alone', async () => {
    const manager = await createStaff(t, [4]);
    await enrolTotp(manager.token);
    const response = await reset(manager.token, manager.userId);
    expect(response.statusCode).toBe(409);
    expect(await factorsOf(manager.token)).toMatchObject({ hasTotp: true });
  });
});

describe('a password reset through a mailed link', () => {
  it('tells the owner which second factors remain', async () => {
    const doctor = await createDoctor(t, { active: true });
    expect((await prove(doctor.token!, { password: doctor.password })).statusCode).toBe(200);
    const started = await post(doctor.token!, '/api/account/second-factor/totp');
    const { secret } = started.json<{ secret: string }>();
    expect(
      (await post(doctor.token!, '/api/account/second-factor/totp/confirm', { code: await codeFor(secret) }))
        .statusCode,
    ).toBe(200);
    const token = await mailedResetToken(t, doctor);
    const done = await post(null, '/api/doctor/reset_password', { token, newPassword: 'a-brand-new-pass' });
    expect(done.statusCode).toBe(200);
    const changed = (await mailsTo(doctor.email)).find((mail) => mail.includes('password was changed'));
    expect(changed).toContain('Second factors on your account now: an authenticator app and 10 recovery codes.');
    expect(changed).toContain('If one of them is not yours');
  });

  it('says so when none remains', async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await mailedResetToken(t, doctor);
    expect(
      (await post(null, '/api/doctor/reset_password', { token, newPassword: 'a-brand-new-pass' })).statusCode,
    ).toBe(200);
    const changed = (await mailsTo(doctor.email)).find((mail) => mail.includes('password was changed'));
    expect(changed).toContain('Your account has no second factor now.');
  });
});
