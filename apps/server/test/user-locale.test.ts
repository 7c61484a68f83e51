import { localeMessages, supportedLocales } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { localeOfAcceptLanguage } from '../src/services/user-locale.ts';
import {
  createAssistant,
  createDoctor,
  createStaff,
  doctorFields,
  firstCityOf,
  formData,
  staffPassword,
  uniqueName,
} from './helpers/factories.ts';
import { accountAudit } from './helpers/account-audit.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Each user's language on their account (docs/decisions/languages.md § The user's language on the server). */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const url = '/api/account/locale';
const read = (token: string | null) => t.as(token, { method: 'GET', url });
const put = (token: string | null, payload?: unknown) =>
  t.as(token, { method: 'PUT', url, ...(payload !== undefined && { payload: payload as object }) });

async function storedLocale(userId: number): Promise<string | undefined> {
  const [row] = await t.app.db.select({ locale: users.locale }).from(users).where(eq(users.userId, userId));
  return row?.locale;
}

/** The user's `account.locale` audit rows, newest first. */
const localeAudit = (user: { userId: number; username: string }) => accountAudit(t, admin, 'account.locale', user);

describe('GET and PUT /api/account/locale', () => {
  it("keeps each signed-in user's own language, doctor, assistant or staff without any page, and answers it as stored", async () => {
    const doctor = await createDoctor(t, { active: true });
    const assistant = await createAssistant(t, doctor.token!);
    const staff = await createStaff(t, []);
    const accounts = [
      { token: doctor.token!, userId: doctor.userId, locale: 'pt-BR' },
      { token: assistant.token, userId: assistant.userId, locale: 'ar' },
      { token: staff.token, userId: staff.userId, locale: 'zh-CN' },
    ] as const;
    for (const account of accounts) {
      expect((await read(account.token)).json()).toEqual({ locale: 'en' });
      const saved = await put(account.token, { locale: account.locale });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ locale: account.locale });
      expect((await read(account.token)).json()).toEqual({ locale: account.locale });
      expect(await storedLocale(account.userId)).toBe(account.locale);
    }
    // Each one's own: the others' are untouched.
    expect(await storedLocale(doctor.userId)).toBe('pt-BR');
    for (const locale of supportedLocales) {
      const saved = await put(staff.token, { locale });
      expect(saved.statusCode, `${locale}: ${saved.body}`).toBe(200);
      expect(saved.json()).toEqual({ locale });
    }
  });

  it('audits each change with the user as target and the language before and after', async () => {
    const staff = await createStaff(t, []);
    expect((await put(staff.token, { locale: 'de' })).statusCode).toBe(200);
    expect((await put(staff.token, { locale: 'fr' })).statusCode).toBe(200);
    const entries = await localeAudit(staff);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      Action: 'account.locale',
      Outcome: 'success',
      StatusCode: 200,
      UserId: staff.userId,
      UserName: staff.username,
      Changes: { locale: { before: 'de', after: 'fr' } },
    });
    expect(entries[1]?.Changes).toEqual({ locale: { before: 'en', after: 'de' } });
  });

  it('refuses anything but one of the ten tags with 400 and a clear message, and changes nothing', async () => {
    const staff = await createStaff(t, []);
    expect((await put(staff.token, { locale: 'it' })).statusCode).toBe(200);
    const auditedBefore = (await localeAudit(staff)).length;
    const refused: unknown[] = [
      { locale: 'xx' },
      { locale: '' },
      { locale: 'EN-us' },
      { locale: 'en-US' },
      { locale: 'EN' },
      { locale: 'pt-br' },
      { locale: 'pt' },
      { locale: 'zh' },
      { locale: 'pseudo' },
      { locale: ' de' },
      { locale: 42 },
      { locale: null },
      { locale: ['de'] },
      {},
      { language: 'de' },
    ];
    for (const payload of refused) {
      const response = await put(staff.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message, JSON.stringify(payload)).toContain(localeMessages.unsupported);
    }
    const noBody = await put(staff.token);
    expect(noBody.statusCode, noBody.body).toBe(400);
    expect((await read(staff.token)).json()).toEqual({ locale: 'it' });
    expect(await storedLocale(staff.userId)).toBe('it');
    const audited = await localeAudit(staff);
    // Refusals are recorded as failures, without changes.
    expect(audited.filter((entry) => entry.Outcome === 'success')).toHaveLength(auditedBefore);
    expect(audited.filter((entry) => entry.Changes !== undefined)).toHaveLength(auditedBefore);
  });

  it('is 401 without a session, and changes no one', async () => {
    expect((await read(null)).statusCode).toBe(401);
    expect((await put(null, { locale: 'de' })).statusCode).toBe(401);
    expect((await put('not-a-token', { locale: 'de' })).statusCode).toBe(401);
  });
});

describe('the sign-in answers the stored language', () => {
  it('password sign-in', async () => {
    const staff = await createStaff(t, []);
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: staff.username, password: staffPassword },
      });
    expect((await login()).json()).toMatchObject({ userId: staff.userId, locale: 'en' });
    expect((await put(staff.token, { locale: 'tr' })).statusCode).toBe(200);
    const answer = await login();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ userId: staff.userId, locale: 'tr', message: 'Login successful!' });
  });

  it("the second step's answer, with an authenticator app's code or a recovery code", async () => {
    const staff = await createStaff(t, []);
    expect((await put(staff.token, { locale: 'pl' })).statusCode).toBe(200);
    const post = (path: string, payload?: object, token: string | null = null) =>
      t.as(token, { method: 'POST', url: path, ...(payload && { payload }) });
    expect((await post('/api/account/reauthenticate', { password: staffPassword }, staff.token)).statusCode).toBe(200);
    const started = await post('/api/account/second-factor/totp', undefined, staff.token);
    const { secret } = started.json<{ secret: string }>();
    const confirmed = await post(
      '/api/account/second-factor/totp/confirm',
      { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }) },
      staff.token,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    const interim = async () => {
      const first = await post('/api/auth/login', { username: staff.username, password: staffPassword });
      expect(first.json()).toMatchObject({ secondFactor: 'verify' });
      expect(first.json().locale).toBeUndefined();
      return first.json<{ interimToken: string }>().interimToken;
    };
    const byCode = await post('/api/auth/second-factor/totp', {
      interimToken: await interim(),
      code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
    });
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(byCode.json()).toMatchObject({ userId: staff.userId, locale: 'pl' });
    const byRecovery = await post('/api/auth/second-factor/recovery', {
      interimToken: await interim(),
      code: recoveryCodes[0],
    });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    expect(byRecovery.json()).toMatchObject({ userId: staff.userId, locale: 'pl' });
  });
});

describe('a new account starts in its language', () => {
  /** Registers a doctor (no session: self-registration) or adds one as `token`; answers the new user's id. */
  async function addDoctor(
    token: string | null,
    fields: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    const cityId = await firstCityOf(t);
    const form = doctorFields({
      clinicList: JSON.stringify([
        { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
      ]),
      ...fields,
    });
    const response = await t.as(token, { method: 'POST', url: '/api/doctor/add', payload: formData(form), headers });
    return { response, username: String(form.username) };
  }
  async function userIdOf(username: string) {
    const [row] = await t.app.db.select({ userId: users.userId }).from(users).where(eq(users.userName, username));
    return row!.userId;
  }
  const registeredLocale = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const { response, username } = await addDoctor(null, fields, headers);
    expect(response.statusCode, response.body).toBe(200);
    return storedLocale(await userIdOf(username));
  };

  it("a registration keeps the language it sends, before the browser's", async () => {
    expect(await registeredLocale({ locale: 'fr' })).toBe('fr');
    expect(await registeredLocale({ locale: 'ar' }, { 'accept-language': 'de-DE,de;q=0.9' })).toBe('ar');
  });

  it("without one, the best match of the request's Accept-Language, else English", async () => {
    expect(await registeredLocale({}, { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' })).toBe('de');
    expect(await registeredLocale({}, { 'accept-language': 'pt-PT' })).toBe('pt-BR');
    expect(await registeredLocale({}, { 'accept-language': 'en;q=0.3, zh-Hans-CN;q=0.8, xx' })).toBe('zh-CN');
    expect(await registeredLocale({}, { 'accept-language': 'ja, ko;q=0.9' })).toBe('en');
    expect(await registeredLocale({}, { 'accept-language': '*' })).toBe('en');
    expect(await registeredLocale({})).toBe('en');
  });

  it('refuses a language not among the ten with 400, and registers no one', async () => {
    for (const locale of ['xx', 'EN-us', '']) {
      const { response, username } = await addDoctor(null, { locale });
      expect(response.statusCode, `${locale}: ${response.body}`).toBe(400);
      expect(response.json().message).toContain(localeMessages.unsupported);
      const [row] = await t.app.db.select().from(users).where(eq(users.userName, username));
      expect(row).toBeUndefined();
    }
  });

  it("staff adding a doctor or a Web user give theirs, else English: never the staff member's browser's", async () => {
    const browser = { 'accept-language': 'es-ES,es;q=0.9' };
    const given = await addDoctor(admin, { locale: 'it' }, browser);
    expect(given.response.statusCode, given.response.body).toBe(200);
    expect(await storedLocale(await userIdOf(given.username))).toBe('it');
    const none = await addDoctor(admin, {}, browser);
    expect(none.response.statusCode, none.response.body).toBe(200);
    expect(await storedLocale(await userIdOf(none.username))).toBe('en');

    const { roleId } = await createStaff(t, []);
    const addUser = (fields: Record<string, string>) => {
      const username = uniqueName('staff');
      const payload = formData({
        username,
        firstname: 'Sam',
        lastname: 'Staff',
        password: staffPassword,
        email: `${username}@lab.test`,
        mobileNo: '5550101',
        roleId,
        userType: 'Web',
        ...fields,
      });
      return t.as(admin, { method: 'POST', url: '/api/user/add', payload, headers: browser });
    };
    const withLocale = await addUser({ locale: 'de' });
    expect(withLocale.statusCode, withLocale.body).toBe(200);
    expect(await storedLocale(withLocale.json<{ UserId: number }>().UserId)).toBe('de');
    const without = await addUser({});
    expect(without.statusCode, without.body).toBe(200);
    expect(await storedLocale(without.json<{ UserId: number }>().UserId)).toBe('en');
    const refused = await addUser({ locale: 'pt-br' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(localeMessages.unsupported);
  });
});

describe('localeOfAcceptLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['de', 'de'],
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['en;q=0.1, tr;q=0.9', 'tr'],
    ['pl;q=0, it', 'it'],
    ['ar;q=0.5, es;q=0.5', 'ar'],
    ['zh-TW', 'zh-CN'],
    ['PT-br', 'pt-BR'],
    ['x;q=abc, de;q=0.2', 'de'],
    ['ja', 'en'],
  ])('%j → %s', (header, expected) => {
    expect(localeOfAcceptLanguage(header)).toBe(expected);
  });

  it('reads the first 32 tags of a longer header', () => {
    expect(localeOfAcceptLanguage(`${'xx,'.repeat(31)}de`)).toBe('de');
    expect(localeOfAcceptLanguage(`${'xx,'.repeat(5000)}de`)).toBe('en');
  });
});
