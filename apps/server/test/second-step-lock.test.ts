import { and, eq, sql } from 'drizzle-orm';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, secondStepFailures, secondStepLocks, totpFactors, users } from '../src/db/schema.ts';
import { createStaff, staffPassword } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/second-step-lock-and-enrolment.md: the second step of a sign-in locks after 10
 * wrong answers to one account in a day, whatever the addresses, and its owner is mailed once.
 * The sign-in throttle keeps its production bounds here, to show they alone let these through.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    loginAttemptsPerAddress: 30,
    loginAttemptsPerAccount: 100,
    loginAttemptsPerAccountAndAddress: 10,
  });
});
afterAll(() => t.close());

const addresses = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'];
const dayMs = 24 * 60 * 60 * 1000;

/** A staff user with a confirmed authenticator app, set up in the database as an enrolment leaves it. */
async function staffWithApp() {
  const staff = await createStaff(t, []);
  const secret = generateSecret();
  await t.app.db.insert(totpFactors).values({ userId: staff.userId, secret, confirmedAt: new Date() });
  const [{ email }] = (await t.app.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.userId, staff.userId))) as [{ email: string }];
  return { ...staff, secret, email };
}
type Owner = Awaited<ReturnType<typeof staffWithApp>>;

const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** A six-digit code the app would not accept now (none of the three steps the check allows). */
async function wrongCode(secret: string) {
  const accepted = new Set(await Promise.all([-1, 0, 1].map((steps) => codeAt(secret, steps))));
  for (let guess = 0; ; guess += 1) {
    const code = String(guess * 7919)
      .padStart(6, '0')
      .slice(-6);
    if (!accepted.has(code)) return code;
  }
}

/** The password step from one address: the interim token for the second step. */
async function passwordStep(owner: Owner, from: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: from,
    payload: { username: owner.username, password: staffPassword },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ interimToken: string }>().interimToken;
}

const secondStep = (interimToken: string, code: string, from: string, method: 'totp' | 'recovery' = 'totp') =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/second-factor/${method}`,
    remoteAddress: from,
    payload: { interimToken, code },
  });

/** Wrong codes from the four addresses in turn, each from a sign-in of its own: their answers. */
async function guess(owner: Owner, count: number, offset = 0) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const from = addresses[(i + offset) % addresses.length]!;
    const response = await secondStep(await passwordStep(owner, from), await wrongCode(owner.secret), from);
    statuses.push(response.statusCode);
  }
  return statuses;
}

const lockMails = async (owner: Owner) =>
  t.app.db
    .select({ variables: mailOutbox.variables })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, owner.email), eq(mailOutbox.template, 'secondStepLocked')));

/** As if a day had passed since the lock and the failures: their times moved back. */
async function aDayLater(owner: Owner) {
  await t.app.db
    .update(secondStepLocks)
    .set({
      lockedAt: sql`${secondStepLocks.lockedAt} - interval '24 hours'`,
      lockedUntil: sql`${secondStepLocks.lockedUntil} - interval '24 hours'`,
    })
    .where(eq(secondStepLocks.userId, owner.userId));
  await t.app.db
    .update(secondStepFailures)
    .set({ failedAt: sql`${secondStepFailures.failedAt} - interval '24 hours'` })
    .where(eq(secondStepFailures.userId, owner.userId));
}

describe('the second step locks per account and day', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await staffWithApp();
  });

  it('answers the tenth wrong code from four addresses with a 429 that says until when, and Retry-After', async () => {
    expect(await guess(owner, 9)).toEqual(Array(9).fill(401));
    const from = addresses[1]!;
    const tenth = await secondStep(await passwordStep(owner, from), await wrongCode(owner.secret), from);
    expect(tenth.statusCode).toBe(429);
    expect(tenth.json().message).toMatch(/locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const retryAfter = Number(tenth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(dayMs / 1000 - 600);
    expect(retryAfter).toBeLessThanOrEqual(dayMs / 1000);
  });

  it('refuses the right code, a recovery code and the passkey options with 429 while locked', async () => {
    const from = addresses[2]!;
    const interimToken = await passwordStep(owner, from);
    const right = await secondStep(interimToken, await codeAt(owner.secret, 0), from);
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/locked until/);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(right.json().token).toBeUndefined();
    expect((await secondStep(interimToken, 'ABCD-EFGH-IJKL-MNOP', from, 'recovery')).statusCode).toBe(429);
    const options = await t.app.inject({
      method: 'POST',
      url: '/api/auth/second-factor/passkey/options',
      remoteAddress: from,
      payload: { interimToken },
    });
    expect(options.statusCode).toBe(429);
  });

  it('mails the owner once, naming that their password is known, and writes one audit row', async () => {
    // More wrong codes while locked neither count nor mail again.
    expect(await guess(owner, 3)).toEqual([429, 429, 429]);
    const mails = await lockMails(owner);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.variables).toMatchObject({ failures: '10', lockedUntil: expect.stringMatching(/UTC$/) });
    const rows = await t.app.db
      .select({ outcome: auditLog.outcome, statusCode: auditLog.statusCode })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.second_step_locked'), eq(auditLog.target, `user:${owner.userId}`)));
    expect(rows).toEqual([{ outcome: 'refused', statusCode: 429 }]);
  });

  it('lets the right code in again a day later', async () => {
    await aDayLater(owner);
    const from = addresses[3]!;
    const response = await secondStep(await passwordStep(owner, from), await codeAt(owner.secret, 1), from);
    expect(response.statusCode).toBe(200);
    expect(response.json().token).toEqual(expect.any(String));
  });
});

describe('what the count of wrong codes holds', () => {
  it('forgets wrong codes older than a day', async () => {
    const owner = await staffWithApp();
    expect(await guess(owner, 9)).toEqual(Array(9).fill(401));
    await aDayLater(owner);
    expect(await guess(owner, 9, 1)).toEqual(Array(9).fill(401));
    expect(await lockMails(owner)).toHaveLength(0);
  });

  it("forgets the owner's own mistypes at a right code", async () => {
    const owner = await staffWithApp();
    expect(await guess(owner, 9)).toEqual(Array(9).fill(401));
    const from = addresses[0]!;
    const right = await secondStep(await passwordStep(owner, from), await codeAt(owner.secret, 0), from);
    expect(right.statusCode).toBe(200);
    expect(await guess(owner, 9)).toEqual(Array(9).fill(401));
  });

  it('does not lock another account', async () => {
    const owner = await staffWithApp();
    const other = await staffWithApp();
    await guess(owner, 10);
    const from = addresses[0]!;
    const response = await secondStep(await passwordStep(other, from), await codeAt(other.secret, 0), from);
    expect(response.statusCode).toBe(200);
  });
});

describe("the lock's mail tells the time in the owner's time zone", () => {
  it('names the end of the lock in the zone the owner chose (docs/decisions/settings.md § Time zones)', async () => {
    const owner = await staffWithApp();
    await t.app.db.update(users).set({ timeZone: 'Asia/Tokyo' }).where(eq(users.userId, owner.userId));
    await guess(owner, 10);
    const [mail] = await lockMails(owner);
    const [lock] = await t.app.db
      .select({ lockedUntil: secondStepLocks.lockedUntil })
      .from(secondStepLocks)
      .where(eq(secondStepLocks.userId, owner.userId));
    // Tokyo is 9 hours ahead of UTC all year.
    const tokyo = new Date(lock!.lockedUntil.getTime() + 9 * 3_600_000).toISOString();
    expect(mail!.variables.lockedUntil).toBe(`${tokyo.slice(0, 10)} ${tokyo.slice(11, 16)} Asia/Tokyo`);
  });
});
