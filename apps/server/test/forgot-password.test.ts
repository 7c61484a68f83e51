import { forgotPasswordMessages, resetMessages } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema.ts';
import { createDoctor, createStaff, outboxMessages, staffPassword, uniqueName } from './helpers/factories.ts';
import { readableMail, resetTokensIn } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { waitUntil } from './helpers/wait-until.ts';

/**
 * "Forgot password?" on the sign-in page (docs/decisions/accounts.md § Forgot password): the
 * same answer for any name, a mail only to an account's own address, throttled, audited.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const forgot = (username: unknown, address = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot_password', payload: { username }, remoteAddress: address });

const post = (token: string | null, url: string, payload?: object) =>
  t.as(token, { method: 'POST', url, ...(payload && { payload }) });

/** Every "forgot password" mail written so far, read as a person reads it. */
async function forgottenMails(): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t))
    .map(readableMail)
    .filter((mail) => mail.includes('Someone asked on the sign-in page for a new password'));
}

/** Waits until `count` such mails went out (the lookup runs after the answer) and answers them. */
async function awaitForgottenMails(count: number): Promise<string[]> {
  let mails: string[] = [];
  await waitUntil(
    async () => {
      mails = await forgottenMails();
      return mails.length >= count;
    },
    `${count} forgotten-password mails`,
    { timeoutMs: 10_000, everyMs: 200 },
  );
  return mails;
}

describe('POST /api/auth/forgot_password', () => {
  it('answers a known and an unknown name alike, mails only the known one, and the link works once', async () => {
    const staff = await createStaff(t, [1]);
    const before = (await forgottenMails()).length;
    const unknown = await forgot(uniqueName('nobody'), '10.0.0.1');
    const known = await forgot(staff.username.toUpperCase(), '10.0.0.1');
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ message: forgotPasswordMessages.mailed });
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());

    // The lookups run one after another in order: once the known name's mail is out, the unknown
    // one's lookup is done too, and it mailed nothing.
    const mails = (await awaitForgottenMails(before + 1)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${staff.username}@lab.test`);
    expect(mails[0]).toContain(`(username ${staff.username})`);

    const [token] = resetTokensIn(mails[0]!);
    const newPassword = 'a-forgotten-one-replaced';
    const first = await post(null, '/api/doctor/reset_password', { token, newPassword });
    expect(first.json()).toEqual({ success: true, message: resetMessages.resetSucceeded });
    const again = await post(null, '/api/doctor/reset_password', { token, newPassword: 'another-new-passphrase' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(resetMessages.linkInvalid);
    expect((await post(null, '/api/auth/login', { username: staff.username, password: newPassword })).statusCode).toBe(
      200,
    );

    await t.app.auditWritten();
    const rows = await t.app.db
      .select({ actorName: auditLog.actorName, outcome: auditLog.outcome })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.password_forgotten'), eq(auditLog.address, '10.0.0.1')));
    expect(rows.map((row) => row.actorName).sort()).toEqual(
      [staff.username.toUpperCase(), expect.stringMatching(/^nobody/)].sort(),
    );
    expect(rows.every((row) => row.outcome === 'success')).toBe(true);
  });

  it('finds an account by its e-mail address too, and never an inactive one', async () => {
    const active = await createDoctor(t, { active: true });
    const inactive = await createDoctor(t);
    const before = (await forgottenMails()).length;
    expect((await forgot(inactive.email, '10.0.0.2')).statusCode).toBe(200);
    expect((await forgot(active.email.toUpperCase(), '10.0.0.2')).statusCode).toBe(200);
    const mails = (await awaitForgottenMails(before + 1)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${active.email}`);
  });

  it('throttles one name (from any address) and one address (for any name) with 429, alike for known and unknown', async () => {
    const staff = await createStaff(t, [1]);
    const nobody = uniqueName('nobody');
    for (const name of [staff.username, nobody]) {
      const answers = [];
      for (const address of ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4']) answers.push(await forgot(name, address));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
      expect(answers[3]!.json()).toEqual({ message: forgotPasswordMessages.tooMany });
      expect(answers[3]!.headers['retry-after']).toBeDefined();
    }
    const fromOneAddress = [];
    for (let i = 0; i < 21; i++) fromOneAddress.push((await forgot(uniqueName('someone'), '10.2.0.1')).statusCode);
    expect(fromOneAddress.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(fromOneAddress[20]).toBe(429);
    // Three requests for the staff name mailed three links; the account gets no more within the hour
    // whatever name reaches it (here its e-mail address, a name of its own).
    await waitUntil(
      async () => (await forgottenMails()).filter((mail) => mail.includes(`(username ${staff.username})`)).length >= 3,
      'three links to the staff member',
      { timeoutMs: 10_000, everyMs: 200 },
    );
    const marker = await createStaff(t, [1]);
    expect((await forgot(`${staff.username}@lab.test`, '10.3.0.1')).statusCode).toBe(200);
    expect((await forgot(marker.username, '10.3.0.1')).statusCode).toBe(200);
    await waitUntil(
      async () => (await forgottenMails()).some((mail) => mail.includes(`(username ${marker.username})`)),
      'the marker link',
      { timeoutMs: 10_000, everyMs: 200 },
    );
    expect((await forgottenMails()).filter((mail) => mail.includes(`(username ${staff.username})`))).toHaveLength(3);
  });

  it('refuses an empty name with a clear 400 and mails nothing', async () => {
    const answer = await forgot('   ', '10.4.0.1');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toContain('Username or e-mail is required');
  });

  it('leaves the second factor in place: the next sign-in still asks for it, and the changed mail names it', async () => {
    const staff = await createStaff(t, [1]);
    expect((await post(staff.token, '/api/account/reauthenticate', { password: staffPassword })).statusCode).toBe(200);
    const started = await post(staff.token, '/api/account/second-factor/totp');
    const { secret } = started.json<{ secret: string }>();
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await post(staff.token, '/api/account/second-factor/totp/confirm', { code })).statusCode).toBe(200);

    const before = (await forgottenMails()).length;
    await forgot(staff.username, '10.5.0.1');
    const [mail] = (await awaitForgottenMails(before + 1)).slice(before);
    const [token] = resetTokensIn(mail!);
    const newPassword = 'after-forgetting-it-all';
    expect((await post(null, '/api/doctor/reset_password', { token, newPassword })).statusCode).toBe(200);
    const signIn = await post(null, '/api/auth/login', { username: staff.username, password: newPassword });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ secondFactor: 'verify', methods: expect.arrayContaining(['totp']) });
    expect(signIn.json().token).toBeUndefined();
    await t.app.outbox.deliverDue();
    const changed = (await outboxMessages(t))
      .map(readableMail)
      .filter((raw) => raw.includes(`To: ${staff.username}@lab.test`) && raw.includes('password'))
      .at(-1);
    expect(changed).toMatch(/authenticator app/i);
  });
});
