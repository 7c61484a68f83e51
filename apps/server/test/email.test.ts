import { createServer, type AddressInfo } from 'node:net';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema.ts';
import { createDoctor, createStaff, doctorEditFields, formData, type CreatedDoctor } from './helpers/factories.ts';
import { resetTokensIn } from './helpers/mail.ts';
import { startSmtp, type SmtpPeer } from './helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function activate(app: TestApp, doctor: CreatedDoctor) {
  return app.as(await app.adminToken(), {
    method: 'PUT',
    url: `/api/doctor/edit/${doctor.doctorId}`,
    payload: formData(await doctorEditFields(app, doctor, { isActive: 'true' })),
  });
}

const sendPayload = (to: string, overrides: Record<string, unknown> = {}) => ({
  to,
  subject: 'Welcome aboard',
  templateName: 'activation',
  variables: { username: 'drwho', resetUrl: 'http://portal.test/reset-password?token=abc123' },
  ...overrides,
});

const outboxCount = async (app: TestApp) =>
  (await app.app.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox))[0]!.n;

describe('with an SMTP server', () => {
  let smtp: SmtpPeer;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    admin = await t.adminToken();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  // A registration's own receipt left out: these tests are about the activation mail.
  const mailsTo = (email: string) =>
    smtp.received.filter((mail) => mail.to.includes(email) && !mail.text.includes('registration was received'));
  const send = (token: string | null, payload: Record<string, unknown>) =>
    t.as(token, { method: 'POST', url: '/api/email/send', payload });

  describe('PUT /doctor/edit/{doctorId} (activation mail)', () => {
    it('delivers the activation mail with a working reset link over SMTP', async () => {
      const doctor = await createDoctor(t);
      expect((await activate(t, doctor)).statusCode).toBe(200);
      await t.app.outbox.deliverDue();
      const [mail] = mailsTo(doctor.email);
      expect(mail).toBeDefined();
      expect(mail!.from).toBe('portal@test');
      expect(mail!.text).toContain('Subject: Your Aligner Portal account is active');
      expect(mail!.text).toContain('Dear Ada Lovelace,');
      const [token] = resetTokensIn(mail!.raw);
      const verified = await t.app.inject({ method: 'GET', url: `/api/doctor/verify_token/${token}` });
      expect(verified.json().success).toBe(true);
      // No copy of the link is kept once the mail has gone.
      const rows = await t.app.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.recipient, doctor.email), eq(mailOutbox.template, 'activation')));
      expect(rows).toEqual([
        expect.objectContaining({ attempts: 1, lastError: null, variables: {}, sentAt: expect.any(Date) }),
      ]);
    });
  });

  describe('POST /email/send', () => {
    it("sends an active doctor the activation mail with a fresh link, the account's name and the template's subject, for staff with the Doctors page", async () => {
      const doctor = await createDoctor(t, { active: true });
      const doctorsStaff = (await createStaff(t, [5])).token;
      for (const token of [admin, doctorsStaff]) {
        const before = mailsTo(doctor.email).length;
        const response = await send(token, sendPayload(doctor.email));
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ message: 'Email sent successfully' });
        const mails = mailsTo(doctor.email);
        expect(mails).toHaveLength(before + 1);
        const mail = mails.at(-1)!;
        expect(mail.text).toContain('Subject: Your Aligner Portal account is active');
        expect(mail.text).toContain('Dear Ada Lovelace,');
        const [resetToken] = resetTokensIn(mail.raw);
        const verified = await t.app.inject({ method: 'GET', url: `/api/doctor/verify_token/${resetToken}` });
        expect(verified.json().success).toBe(true);
      }
    });

    it("never mails the caller's link, subject or name: phishing under the portal's name (issue 20)", async () => {
      const doctor = await createDoctor(t, { active: true });
      const response = await send(
        admin,
        sendPayload(doctor.email, {
          subject: 'Urgent: confirm your account',
          variables: { username: 'Doctor, sign in at https://evil.test', resetUrl: 'https://evil.test/login' },
        }),
      );
      expect(response.statusCode).toBe(200);
      const mail = mailsTo(doctor.email).at(-1)!;
      expect(mail.text).not.toContain('evil.test');
      expect(mail.text).not.toContain('Urgent');
      expect(mail.text).toContain('Subject: Your Aligner Portal account is active');
      const links = [...mail.text.matchAll(/https?:\/\/[^\s"<>]+/g)].map((match) => match[0]);
      expect(links.length).toBeGreaterThan(0);
      expect(links.every((link) => link.startsWith(`${t.config.publicUrl}/`))).toBe(true);
    });

    it('finds the doctor whatever the letter case of the address', async () => {
      const doctor = await createDoctor(t, { active: true });
      const response = await send(admin, sendPayload(doctor.email.toUpperCase()));
      expect(response.statusCode).toBe(200);
      expect(smtp.received.at(-1)!.to.map((address) => address.toLowerCase())).toEqual([doctor.email]);
    });

    it('never lets a subject add recipients or headers', async () => {
      const doctor = await createDoctor(t, { active: true });
      const response = await send(admin, sendPayload(doctor.email, { subject: 'Hello\r\nBcc: victim@attacker.test' }));
      expect(response.statusCode).toBeLessThan(500);
      expect(smtp.received.some((mail) => mail.to.includes('victim@attacker.test'))).toBe(false);
      expect(smtp.received.some((mail) => /^Bcc:/im.test(mail.raw))).toBe(false);
    });

    it('refuses doctors and Web users without the Doctors page (403), anonymous callers (401)', async () => {
      const doctor = await createDoctor(t, { active: true });
      const dashboardStaff = (await createStaff(t, [1])).token;
      const before = await outboxCount(t);
      expect((await send(doctor.token!, sendPayload(doctor.email))).statusCode).toBe(403);
      expect((await send(dashboardStaff, sendPayload(doctor.email))).statusCode).toBe(403);
      expect((await send(null, sendPayload(doctor.email))).statusCode).toBe(401);
      expect(await outboxCount(t)).toBe(before);
    });

    it("answers 400 for an address no active doctor has (a stranger's, a deleted or inactive doctor's, a Web user's) or bad fields, and queues nothing", async () => {
      const deleted = await createDoctor(t, { active: true });
      expect((await t.as(admin, { method: 'DELETE', url: `/api/doctor/delete/${deleted.doctorId}` })).statusCode).toBe(
        200,
      );
      const inactive = await createDoctor(t);
      const staff = await createStaff(t, []);
      const registered = await createDoctor(t, { active: true });
      await t.app.outbox.deliverDue();
      const before = await outboxCount(t);
      const received = smtp.received.length;
      for (const to of ['stranger@elsewhere.test', deleted.email, inactive.email, `${staff.username}@lab.test`]) {
        const response = await send(admin, sendPayload(to));
        expect(response.statusCode).toBe(400);
        expect(response.json().fieldErrors).toEqual({ to: 'No active doctor is registered with this e-mail address' });
      }
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [{ templateName: 'caseStatus' }, { templateName: 'Template is not valid' }],
        [{ templateName: 'nope' }, { templateName: 'Template is not valid' }],
        [{ to: 'not-an-email' }, { to: 'Email is not valid' }],
        [{ to: '' }, { to: 'Email is required' }],
      ];
      for (const [overrides, fieldErrors] of cases) {
        const response = await send(admin, sendPayload(registered.email, overrides));
        expect(response.statusCode).toBe(400);
        expect(response.json().fieldErrors).toEqual(fieldErrors);
      }
      expect(await outboxCount(t)).toBe(before);
      expect(smtp.received.length).toBe(received);
    });
  });
});

describe('with the SMTP server down', () => {
  let port: number;
  let t: TestApp;

  beforeAll(async () => {
    port = await closedPort();
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  afterAll(() => t.close());

  const unsent = () => t.app.db.select().from(mailOutbox).where(isNull(mailOutbox.sentAt)).orderBy(mailOutbox.mailId);

  it('commits the change, keeps the mail for retry, answers 202, and delivers once SMTP is back', async () => {
    const doctor = await createDoctor(t);
    // The registration's receipt is not this test's mail.
    await t.app.outbox.deliverDue();
    await t.app.db.delete(mailOutbox);
    const activated = await activate(t, doctor);
    expect(activated.statusCode).toBe(200);
    expect(await t.app.outbox.deliverDue()).toBe(0);
    // The doctor is active although the mail could not go.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: doctor.username, password: doctor.password },
        })
      ).statusCode,
    ).toBe(200);
    const [queued] = await unsent();
    expect(queued).toMatchObject({ recipient: doctor.email, template: 'activation', attempts: 1, sentAt: null });
    expect(queued!.lastError).toMatch(/ECONNREFUSED/);
    expect(queued!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    const [link] = resetTokensIn(queued!.variables.resetUrl!);

    const viaApi = await t.as(await t.adminToken(), {
      method: 'POST',
      url: '/api/email/send',
      payload: sendPayload(doctor.email),
    });
    expect(viaApi.statusCode).toBe(202);
    expect(viaApi.json()).toEqual({ message: 'The e-mail could not be sent now; it will be retried.' });
    expect(await unsent()).toHaveLength(2);

    // Not due yet: nothing is attempted before the retry delay.
    expect(await t.app.outbox.deliverDue()).toBe(0);
    expect((await unsent()).map((row) => row.attempts)).toEqual([1, 1]);

    const smtp = await startSmtp(port);
    try {
      await t.app.db
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now()` as unknown as Date })
        .where(isNull(mailOutbox.sentAt));
      expect(await t.app.outbox.deliverDue()).toBe(2);
      expect(await unsent()).toEqual([]);
      expect(smtp.received.map((mail) => mail.to)).toEqual([[doctor.email], [doctor.email]]);
      expect(resetTokensIn(smtp.received[0]!.raw)).toEqual([link]);
      const rows = await t.app.db.select().from(mailOutbox);
      expect(rows.every((row) => row.lastError === null && row.attempts === 2)).toBe(true);
    } finally {
      await smtp.close();
    }
  });

  it('stops retrying after ten attempts', async () => {
    const doctor = await createDoctor(t);
    const [{ mailId }] = (await t.app.db
      .insert(mailOutbox)
      .values({
        recipient: doctor.email,
        template: 'activation',
        variables: { username: doctor.username, resetUrl: 'http://portal.test/x' },
        attempts: 9,
      })
      .returning({ mailId: mailOutbox.mailId })) as [{ mailId: number }];
    expect(await t.app.outbox.deliverDue()).toBe(0);
    const [row] = await t.app.db
      .select({
        attempts: mailOutbox.attempts,
        givenUp: sql<boolean>`${mailOutbox.nextAttemptAt} = 'infinity'::timestamptz`,
        lastError: mailOutbox.lastError,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.mailId, mailId));
    expect(row).toMatchObject({ attempts: 10, givenUp: true, lastError: expect.stringMatching(/ECONNREFUSED/) });
  });
});
