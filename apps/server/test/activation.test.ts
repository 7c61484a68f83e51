import { createHash } from 'node:crypto';
import { messages, resetMessages } from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, passwordResetTokens } from '../src/db/schema.ts';
import { createResetLink } from '../src/services/password-reset.ts';
import {
  allRows,
  type CreatedDoctor,
  createDoctor,
  createStaff,
  doctorEditFields,
  formData,
  mailedResetToken,
  outboxMessages,
} from './helpers/factories.ts';
import { readableMail, resetTokensIn } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let admin: string;
let doctorsStaff: string;
let dashboardStaff: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  doctorsStaff = (await createStaff(t, [5])).token;
  dashboardStaff = (await createStaff(t, [1])).token;
});
afterAll(() => t.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

const verify = (token: string) =>
  t.app.inject({ method: 'GET', url: `/api/doctor/verify_token/${encodeURIComponent(token)}` });

const reset = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/doctor/reset_password', payload });

const requestReset = (token: string | null, doctorId: number | string) =>
  t.as(token, { method: 'POST', url: `/api/doctor/request_password_reset/${doctorId}` });

const activate = (token: string | null, doctorId: number | string) =>
  t.as(token, { method: 'POST', url: `/api/doctor/activate/${doctorId}` });

const setActive = async (doctor: CreatedDoctor, isActive: boolean) =>
  t.as(admin, {
    method: 'PUT',
    url: `/api/doctor/edit/${doctor.doctorId}`,
    payload: formData(await doctorEditFields(t, doctor, { isActive: String(isActive) })),
  });

const registrationReceipt = 'Subject: Your Aligner Portal registration was received';

/**
 * The messages written to DATA_DIR/outbox for one recipient, once the outbox has run; the
 * receipt every registration gets is left out (counted in the first test only).
 */
async function mailsTo(email: string, options: { withReceipt?: boolean } = {}): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).filter(
    (raw) => raw.includes(`To: ${email}`) && (options.withReceipt || !raw.includes(registrationReceipt)),
  );
}

describe('doctor activation flow', () => {
  it('registration -> inactive -> activated by the administrator -> e-mailed link sets the password once', async () => {
    const doctor = await createDoctor(t);
    const inactive = await login(doctor.username, doctor.password);
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().message).toBe(messages.accountInactive);
    const receipts = await mailsTo(doctor.email, { withReceipt: true });
    expect(receipts).toHaveLength(1);
    expect(readableMail(receipts[0]!)).toContain(registrationReceipt);
    expect(resetTokensIn(receipts[0]!)).toEqual([]);

    const activated = await setActive(doctor, true);
    expect(activated.statusCode).toBe(200);
    expect(activated.json().message).toBe('Doctor activated; the activation e-mail is on its way');

    const mails = await mailsTo(doctor.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: Your Aligner Portal account is active');
    const [token] = resetTokensIn(mails[0]!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Only the hash is stored; the sent mail no longer keeps the link either.
    const stored = await t.app.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, doctor.userId));
    expect(stored.map((row) => row.tokenHash)).toEqual([sha256(token!)]);
    expect(JSON.stringify(stored)).not.toContain(token);
    const [mailRow] = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, doctor.email));
    expect(mailRow!.sentAt).toBeInstanceOf(Date);
    expect(mailRow!.variables).toEqual({});

    expect((await verify(token!)).json()).toEqual({ success: true, message: resetMessages.linkValid });
    const done = await reset({ token, newPassword: 'chosen-by-doctor' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true, message: 'Password reset successful. You can now log in.' });

    expect((await login(doctor.username, 'chosen-by-doctor')).statusCode).toBe(200);
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(401);

    const verifiedAgain = await verify(token!);
    expect(verifiedAgain.statusCode).toBe(200);
    expect(verifiedAgain.json()).toEqual({ success: false, message: resetMessages.linkInvalid });
    const usedAgain = await reset({ token, newPassword: 'another-password' });
    expect(usedAgain.statusCode).toBe(400);
    expect(usedAgain.json()).toEqual({ success: false, message: resetMessages.linkInvalid });
    expect((await login(doctor.username, 'chosen-by-doctor')).statusCode).toBe(200);
  });

  it('sends the activation mail only on the change from inactive to active', async () => {
    const doctor = await createDoctor(t);
    expect((await setActive(doctor, true)).statusCode).toBe(200);
    const again = await setActive(doctor, true);
    expect(again.json().message).toBe('Doctor updated successfully');
    expect(await mailsTo(doctor.email)).toHaveLength(1);
    expect((await setActive(doctor, false)).statusCode).toBe(200);
    expect((await setActive(doctor, true)).statusCode).toBe(200);
    expect(await mailsTo(doctor.email)).toHaveLength(2);
  });

  it('queues one activation mail when two staff activate the same doctor at once', async () => {
    const doctor = await createDoctor(t);
    const responses = await Promise.all([setActive(doctor, true), setActive(doctor, true), setActive(doctor, true)]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect(await mailsTo(doctor.email)).toHaveLength(1);
    const tokens = await t.app.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, doctor.userId));
    expect(tokens).toHaveLength(1);
  });

  it('sends nothing for a doctor added active by staff, nor for a refused edit', async () => {
    const added = await createDoctor(t, { active: true });
    const inactive = await createDoctor(t);
    const refused = await t.as(admin, {
      method: 'PUT',
      url: `/api/doctor/edit/${inactive.doctorId}`,
      payload: formData(await doctorEditFields(t, inactive, { isActive: 'true', gender: '' })),
    });
    expect(refused.statusCode).toBe(400);
    expect(await mailsTo(added.email)).toEqual([]);
    expect(await mailsTo(inactive.email)).toEqual([]);
    const rows = await t.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, inactive.userId));
    expect(rows[0]!.n).toBe(0);
  });
});

describe('GET /doctor/verify_token/{token}', () => {
  it("accepts a fresh link and refuses an expired, a garbage or a deleted doctor's link", async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await mailedResetToken(t, doctor);
    expect((await verify(token)).json()).toEqual({ success: true, message: resetMessages.linkValid });

    await t.app.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` as unknown as Date })
      .where(eq(passwordResetTokens.tokenHash, sha256(token)));
    const expired = await verify(token);
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toEqual({ success: false, message: resetMessages.linkInvalid });

    expect((await verify('not-a-real-token')).json()).toEqual({ success: false, message: resetMessages.linkInvalid });

    const fresh = await mailedResetToken(t, doctor);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/doctor/delete/${doctor.doctorId}` })).statusCode).toBe(
      200,
    );
    expect((await verify(fresh)).json()).toEqual({ success: false, message: resetMessages.linkInvalid });
  });

  it('expires a link after one hour', async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await mailedResetToken(t, doctor);
    const [row] = await t.app.db
      .select({
        lifetime: sql<number>`extract(epoch from ${passwordResetTokens.expiresAt} - ${passwordResetTokens.createdAt})::int`,
      })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.tokenHash, sha256(token)));
    expect(row!.lifetime).toBe(3600);
  });

  it('refuses a token longer than any link holds with a 4xx, never a 5xx', async () => {
    for (const length of [100, 201, 5000]) {
      const response = await verify('x'.repeat(length));
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().success).not.toBe(true);
    }
  });
});

describe('POST /doctor/reset_password', () => {
  it('refuses an expired link and keeps the password', async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await mailedResetToken(t, doctor);
    await t.app.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` as unknown as Date })
      .where(eq(passwordResetTokens.tokenHash, sha256(token)));
    const response = await reset({ token, newPassword: 'too-late-pass' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: resetMessages.linkInvalid });
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(200);
  });

  it('refuses a garbage token', async () => {
    const response = await reset({ token: 'garbage', newPassword: 'whatever-pass' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: resetMessages.linkInvalid });
  });

  it('ends the old sessions and uses up the other open links of the user', async () => {
    const doctor = await createDoctor(t, { active: true });
    const first = await mailedResetToken(t, doctor);
    const second = await mailedResetToken(t, doctor);
    expect((await reset({ token: first, newPassword: 'reset-pass-1' })).statusCode).toBe(200);
    const session = await t.as(doctor.token!, {
      method: 'GET',
      url: `/api/doctor/get_doctor_detail_by_user_Id/${doctor.userId}`,
    });
    expect(session.statusCode).toBe(401);
    expect((await reset({ token: second, newPassword: 'reset-pass-2' })).json()).toEqual({
      success: false,
      message: resetMessages.linkInvalid,
    });
    expect((await login(doctor.username, 'reset-pass-1')).statusCode).toBe(200);
  });

  it('answers 400 with the spec messages for bad input and leaves the link usable', async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await mailedResetToken(t, doctor);
    const short = await reset({ token, newPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors).toEqual({ newPassword: 'Password must be at least 12 characters' });
    const blank = await reset({ token, newPassword: '      ' });
    expect(blank.json().fieldErrors).toEqual({ newPassword: 'Password is required' });
    const noToken = await reset({ newPassword: 'long-enough-now' });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().fieldErrors).toEqual({ token: 'Invalid reset link' });
    expect((await verify(token)).json().success).toBe(true);
  });
});

describe('a reset link dies with the credentials it was mailed for (issue 20)', () => {
  const editDoctor = async (token: string, doctor: CreatedDoctor, overrides: Record<string, string>) =>
    t.as(token, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(await doctorEditFields(t, doctor, overrides)),
    });

  const isUsable = async (token: string) => (await verify(token)).json().success === true;

  /** A link as the doctor's mail carries it, made directly so that the test is about its end. */
  async function openLink(doctor: CreatedDoctor): Promise<string> {
    const link = await createResetLink(t.app.db, doctor.userId, t.config.publicUrl);
    const token = new URL(link).searchParams.get('token')!;
    expect(await isUsable(token)).toBe(true);
    return token;
  }

  it("after the doctor's own password change", async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await openLink(doctor);
    const changed = await editDoctor(doctor.token!, doctor, {
      password: 'own-new-pass',
      currentPassword: doctor.password,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await isUsable(token)).toBe(false);
    expect((await reset({ token, newPassword: 'from-old-link' })).statusCode).toBe(400);
    expect((await login(doctor.username, 'own-new-pass')).statusCode).toBe(200);
  });

  it('after the administrator sets the password or the e-mail', async () => {
    const doctor = await createDoctor(t, { active: true });
    const beforePassword = await openLink(doctor);
    expect((await editDoctor(admin, doctor, { password: 'set-by-admin' })).statusCode).toBe(200);
    expect(await isUsable(beforePassword)).toBe(false);
    const beforeEmail = await openLink(doctor);
    expect((await editDoctor(admin, doctor, { email: `moved.${doctor.email}` })).statusCode).toBe(200);
    expect(await isUsable(beforeEmail)).toBe(false);
  });

  it('after deactivation, and a doctor activated again gets a new one', async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await openLink(doctor);
    expect((await setActive(doctor, false)).statusCode).toBe(200);
    expect(await isUsable(token)).toBe(false);
    expect((await reset({ token, newPassword: 'while-inactive' })).statusCode).toBe(400);
    expect((await setActive(doctor, true)).statusCode).toBe(200);
    expect(await isUsable(token)).toBe(false);
    const [activation] = (await mailsTo(doctor.email)).filter((raw) => raw.includes('account is active'));
    expect(await isUsable(resetTokensIn(activation!)[0]!)).toBe(true);
  });

  it('keeps the link through an edit that changes neither password, e-mail nor status', async () => {
    const doctor = await createDoctor(t, { active: true });
    const token = await openLink(doctor);
    expect((await editDoctor(admin, doctor, { lastname: 'Renamed' })).statusCode).toBe(200);
    expect(await isUsable(token)).toBe(true);
  });
});

describe('POST /doctor/request_password_reset/{doctorId}', () => {
  it("mails the link to the doctor's own address for staff with the Doctors page, never in the answer", async () => {
    const doctor = await createDoctor(t, { active: true });
    for (const token of [admin, doctorsStaff]) {
      const before = (await mailsTo(doctor.email)).length;
      const response = await requestReset(token, doctor.doctorId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'A link to set a new password has been e-mailed to the doctor' });
      expect(response.body).not.toContain('token=');
      const mails = await mailsTo(doctor.email);
      expect(mails).toHaveLength(before + 1);
      const mail = readableMail(mails.at(-1)!);
      expect(mail).toContain('Subject: Set a new Aligner Portal password');
      expect(mail).toContain('If you did not ask for one, you can ignore this e-mail');
      const [resetToken] = resetTokensIn(mail);
      expect((await verify(resetToken!)).json().success).toBe(true);
    }
  });

  it('refuses doctors (even for themselves) and Web users without the page (403), anonymous callers (401)', async () => {
    const doctor = await createDoctor(t, { active: true });
    expect((await requestReset(doctor.token!, doctor.doctorId)).statusCode).toBe(403);
    expect((await requestReset(dashboardStaff, doctor.doctorId)).statusCode).toBe(403);
    expect((await requestReset(null, doctor.doctorId)).statusCode).toBe(401);
    const rows = await t.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, doctor.userId));
    expect(rows[0]!.n).toBe(0);
  });

  it('answers 404 for an unknown or deleted doctor and 400 for a bad id', async () => {
    const doctor = await createDoctor(t);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/doctor/delete/${doctor.doctorId}` })).statusCode).toBe(
      200,
    );
    expect((await requestReset(admin, doctor.doctorId)).statusCode).toBe(404);
    expect((await requestReset(admin, 99_999_999)).statusCode).toBe(404);
    expect((await requestReset(admin, 'abc')).statusCode).toBe(400);
  });
});

describe('activation mail wording', () => {
  it('says first that the account is active and the registration password works, with a sign-in link; the reset link only for a new password', async () => {
    const doctor = await createDoctor(t);
    expect((await activate(admin, doctor.doctorId)).statusCode).toBe(200);
    const [raw] = await mailsTo(doctor.email);
    const mail = readableMail(raw!);
    const [token] = resetTokensIn(mail);
    const active = mail.indexOf('Your account has been activated.');
    const registrationPassword = mail.indexOf('Sign in with the password you chose when you registered:');
    const signIn = mail.search(/http:\/\/portal\.test\/\s/); // the sign-in screen's address on a line of its own
    const newPassword = mail.indexOf('To set a new password instead, use this link (valid for one hour):');
    const resetLink = mail.indexOf(`/reset-password?token=${token}`);
    expect([active, registrationPassword, signIn, newPassword, resetLink].every((at) => at >= 0)).toBe(true);
    expect(active).toBeLessThan(registrationPassword);
    expect(registrationPassword).toBeLessThan(signIn);
    expect(signIn).toBeLessThan(newPassword);
    expect(newPassword).toBeLessThan(resetLink);
    expect(mail).toContain(`<a href="${t.config.publicUrl}/">Sign in to Aligner Portal</a>`);
    // The password chosen at registration still signs in after activation.
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(200);
  });
});

describe('POST /doctor/activate/{doctorId}', () => {
  it('activates a waiting doctor in one call, with one activation mail, and changes nothing else', async () => {
    const doctor = await createDoctor(t);
    const before = (await allRows<{ DoctorId: number }>(t, admin, '/api/doctor/get_doctors_list')).find(
      (row) => row.DoctorId === doctor.doctorId,
    );
    const response = await activate(doctorsStaff, doctor.doctorId);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Doctor activated; the activation e-mail is on its way');
    const after = (await allRows<{ DoctorId: number }>(t, admin, '/api/doctor/get_doctors_list')).find(
      (row) => row.DoctorId === doctor.doctorId,
    );
    expect(after).toEqual({ ...before, IsActive: true });
    expect(await mailsTo(doctor.email)).toHaveLength(1);
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(200);
  });

  it('mails once when clicked twice or by two staff at once, and not at all for an active doctor', async () => {
    const doctor = await createDoctor(t);
    const answers = await Promise.all([activate(admin, doctor.doctorId), activate(doctorsStaff, doctor.doctorId)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.json().message).sort()).toEqual([
      'Doctor activated; the activation e-mail is on its way',
      'The doctor is already active',
    ]);
    expect(await mailsTo(doctor.email)).toHaveLength(1);
    const active = await createDoctor(t, { active: true });
    expect((await activate(admin, active.doctorId)).json().message).toBe('The doctor is already active');
    expect(await mailsTo(active.email)).toEqual([]);
  });

  it('refuses doctors, staff without the Doctors page and anonymous callers, leaving the doctor inactive', async () => {
    const doctor = await createDoctor(t);
    expect((await activate(doctor.token ?? null, doctor.doctorId)).statusCode).toBe(401);
    expect((await activate(dashboardStaff, doctor.doctorId)).statusCode).toBe(403);
    expect((await activate(null, doctor.doctorId)).statusCode).toBe(401);
    expect((await login(doctor.username, doctor.password)).statusCode).toBe(403);
    expect(await mailsTo(doctor.email)).toEqual([]);
  });

  it('answers 404 for an unknown or deleted doctor and 400 for a bad id', async () => {
    const doctor = await createDoctor(t);
    await t.as(admin, { method: 'DELETE', url: `/api/doctor/delete/${doctor.doctorId}` });
    expect((await activate(admin, doctor.doctorId)).statusCode).toBe(404);
    expect((await activate(admin, 99_999_999)).statusCode).toBe(404);
    expect((await activate(admin, 'abc')).statusCode).toBe(400);
    expect(await mailsTo(doctor.email)).toEqual([]);
  });
});
