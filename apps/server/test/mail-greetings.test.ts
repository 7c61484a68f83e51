import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  doctorFields,
  firstCityOf,
  formData,
  latestResetTokenTo,
  outboxMessages,
  type CreatedDoctor,
} from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Every mail greets its reader by first and last name, never by username (issue 24). */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const names = { firstname: 'Grace', lastname: 'Hopper' };

/** The newest mail with this subject that reached `email`, as a reader sees it. */
async function latestMail(email: string, subject: string): Promise<string> {
  await t.app.outbox.deliverDue();
  const mail = (await outboxMessages(t))
    .map(readableMail)
    .filter((raw) => raw.includes(`To: ${email}`) && raw.includes(`Subject: ${subject}`))
    .at(-1);
  if (!mail) throw new Error(`no mail "${subject}" reached ${email}`);
  return mail;
}

function expectGreetedByName(mail: string, username: string, name = 'Grace Hopper') {
  expect(mail).toContain(`Dear ${name},`);
  expect(mail).toContain(`<p>Dear ${name},</p>`);
  expect(mail).not.toContain(`Dear ${username}`);
}

const editDoctor = async (token: string, doctor: CreatedDoctor, overrides: Record<string, string>) =>
  t.as(token, {
    method: 'PUT',
    url: `/api/doctor/edit/${doctor.doctorId}`,
    payload: formData(await doctorEditFields(t, doctor, { ...names, ...overrides })),
  });

describe('the activation mail', () => {
  it('greets by name when an edit activates the doctor, by the name that edit sets', async () => {
    const doctor = await createDoctor(t, { fields: names });
    const response = await editDoctor(admin, doctor, { isActive: 'true', firstname: 'Grace B.' });
    expect(response.statusCode, response.body).toBe(200);
    expectGreetedByName(
      await latestMail(doctor.email, 'Your Aligner Portal account is active'),
      doctor.username,
      'Grace B. Hopper',
    );
  });

  it('greets by name from Activate and from POST /email/send', async () => {
    const doctor = await createDoctor(t, { fields: names });
    expect((await t.as(admin, { method: 'POST', url: `/api/doctor/activate/${doctor.doctorId}` })).statusCode).toBe(
      200,
    );
    expectGreetedByName(await latestMail(doctor.email, 'Your Aligner Portal account is active'), doctor.username);
    const sent = await t.as(admin, {
      method: 'POST',
      url: '/api/email/send',
      payload: { to: doctor.email, templateName: 'activation' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mails = (await outboxMessages(t)).map(readableMail).filter((raw) => raw.includes(`To: ${doctor.email}`));
    for (const mail of mails.filter((raw) => raw.includes('account is active'))) {
      expectGreetedByName(mail, doctor.username);
    }
  });
});

describe('the reset link and the change notices', () => {
  it('greets by name in the reset link, and in the notice after the link set a password', async () => {
    const doctor = await createDoctor(t, { active: true, fields: names });
    const requested = await t.as(admin, {
      method: 'POST',
      url: `/api/doctor/request_password_reset/${doctor.doctorId}`,
    });
    expect(requested.statusCode, requested.body).toBe(200);
    expectGreetedByName(await latestMail(doctor.email, 'Set a new Aligner Portal password'), doctor.username);
    const token = await latestResetTokenTo(t, doctor.email);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token, newPassword: 'another-passphrase' },
    });
    expect(reset.json(), reset.body).toMatchObject({ success: true });
    expectGreetedByName(await latestMail(doctor.email, 'Your Aligner Portal password was changed'), doctor.username);
  });

  it("greets by name when the doctor changes their own password and when staff change a user's", async () => {
    const doctor = await createDoctor(t, { active: true, fields: names });
    const own = await editDoctor(doctor.token!, doctor, {
      password: 'own-new-passphrase',
      currentPassword: doctor.password,
    });
    expect(own.statusCode, own.body).toBe(200);
    expectGreetedByName(await latestMail(doctor.email, 'Your Aligner Portal password was changed'), doctor.username);

    const staff = await createStaff(t, []);
    const edited = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${staff.userId}`,
      payload: formData({
        username: staff.username,
        firstname: 'Sam',
        lastname: 'Staff',
        password: 'admin-set-passphrase',
        email: `${staff.username}@lab.test`,
        mobileNo: '5550101',
        roleId: staff.roleId,
      }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expectGreetedByName(
      await latestMail(`${staff.username}@lab.test`, 'Your Aligner Portal password was changed'),
      staff.username,
      'Sam Staff',
    );
  });
});

describe('the notice of a registration with a taken username', () => {
  it("greets the username's owner by name, and names the username", async () => {
    const doctor = await createDoctor(t, { active: true, fields: names });
    const cityId = await firstCityOf(t);
    const clinicList = JSON.stringify([
      { clinicId: 0, clinicName: 'Elsewhere', countryId: 1, cityId, address: '2 Side St' },
    ]);
    const fields = doctorFields({
      username: doctor.username,
      email: `other.${doctor.email}`,
      firstname: 'Eve',
      clinicList,
    });
    const registered = await t.app.inject({ method: 'POST', url: '/api/doctor/add', payload: formData(fields) });
    expect(registered.statusCode, registered.body).toBe(200);
    const mail = await latestMail(doctor.email, 'Someone tried to register your Aligner Portal username');
    expectGreetedByName(mail, doctor.username);
    expect(mail).toContain(`with your username, ${doctor.username}.`);
  });
});
