import { usernameMessages } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import {
  allRows,
  createDoctor,
  createStaff,
  doctorFields,
  formData,
  makeImage,
  uniqueName,
} from './helpers/factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';
import { displayFileName } from '../src/services/cases/file-checks.ts';

/** Look-alike usernames and file names that read as something else (docs/decisions/accounts.md § Usernames). */

let t: TestApp;
let admin: string;
let plainRoleId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  plainRoleId = (await createStaff(t, [])).roleId;
});
afterAll(() => t.close());

function webUser(username: string) {
  return formData({
    username,
    firstname: 'Look',
    lastname: 'Alike',
    password: 'lookalike-pass',
    email: 'look.alike@lab.test',
    mobileNo: '5550123',
    roleId: plainRoleId,
    userType: 'Web',
  });
}

async function usernames(): Promise<string[]> {
  const users = await allRows<{ UserName: string }>(t, admin, '/api/user/get_users_list');
  const doctors = await allRows<{ UserName: string }>(t, admin, '/api/doctor/get_doctors_list');
  return [...users, ...doctors].map((row) => row.UserName);
}

describe('usernames with invisible or look-alike characters', () => {
  const cases = [
    { name: 'a zero-width space', username: 'secadmin\u200b', message: usernameMessages.invisible },
    { name: 'a right-to-left override', username: 'sec\u202eadmin', message: usernameMessages.invisible },
    { name: 'a control character', username: 'sec\u0007admin', message: usernameMessages.invisible },
    { name: 'a Cyrillic letter among Latin ones', username: '\u0455ecadmin', message: usernameMessages.mixedScripts },
    { name: 'a Greek letter among Latin ones', username: 'secadm\u03b9n', message: usernameMessages.mixedScripts },
  ];

  it.each(cases)('refuses $name at registration with 400, registering nobody', async ({ username, message }) => {
    const before = await usernames();
    const response = await t.as(null, {
      method: 'POST',
      url: '/api/doctor/add',
      payload: formData(doctorFields({ username })),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ username: message });
    expect(await usernames()).toEqual(before);
  });

  it.each(cases)('refuses $name on the Users screen with 400', async ({ username, message }) => {
    const response = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: webUser(username) });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ username: message });
  });

  it('stores a fullwidth username in its NFKC form, and signs in by either form', async () => {
    const plain = uniqueName('wide');
    const fullwidth = [...plain].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
    await createDoctor(t, { fields: { username: fullwidth } });
    expect(await usernames()).toContain(plain);
    expect(await usernames()).not.toContain(fullwidth);
    // Inactive after registration: the right password answers 403 (not 401) by either form.
    for (const typed of [plain, fullwidth]) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: typed, password: 'secret-passphrase' },
      });
      expect(login.statusCode).toBe(403);
    }
  });

  it("refuses a compatibility form of a taken name (fullwidth 'ａｄｍｉｎ') as taken", async () => {
    const response = await t.as(admin, {
      method: 'POST',
      url: '/api/user/add',
      payload: webUser('\uff41\uff44\uff4d\uff49\uff4e'),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Username is already taken');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: '\uff41\uff44\uff4d\uff49\uff4e', password: testAdmin.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('still accepts one-script names in other alphabets', async () => {
    const suffix = String(Date.now() % 1_000_000);
    for (const username of [`\u0418\u0432\u0430\u043d${suffix}`, `山田たろう${suffix}`]) {
      const response = await t.as(admin, { method: 'POST', url: '/api/user/add', payload: webUser(username) });
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await usernames()).toContain(`\u0418\u0432\u0430\u043d${suffix}`);
  });
});

describe('file names with bidirectional overrides', () => {
  it('strips bidi controls in the one place file names are cleaned', () => {
    expect(displayFileName('\u202egnp.exe.png')).toBe('gnp.exe.png');
    expect(displayFileName('scan\u2067.stl\u2069')).toBe('scan.stl');
    expect(displayFileName('\u200f\u200e')).toBe('file');
  });

  it('stores and sends a case file named "\\u202Egnp.exe.png" without the override', async () => {
    const doctor = await createCaseDoctor(t);
    const photo = { data: await makeImage('png', 40), name: '\u202egnp.exe.png', type: 'image/png' };
    const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId), { frontSmiling: photo }));
    expect(response.statusCode, response.body).toBe(200);
    const caseId = response.json<{ CaseId: number }>().CaseId;
    const rows = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
    });
    const stored = rows.json<{ FileName: string; FilePath: string }[]>().find((row) => row.FileName.endsWith('.png'))!;
    expect(stored.FileName).toBe('gnp.exe.png');
    const download = await t.as(doctor.token, { method: 'GET', url: stored.FilePath });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `inline; filename="gnp.exe.png"; filename*=UTF-8''gnp.exe.png`,
    );
  });

  it('stores a message file without the override', async () => {
    const doctor = await createCaseDoctor(t);
    const submitted = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    const caseId = submitted.json<{ CaseId: number }>().CaseId;
    const file = { data: await makeImage('png', 30), name: 'x\u202egnp.exe.png', type: 'image/png' };
    const answer = await t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: caseForm({ text: 'see' }, { files: file }),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<{ attachments: { fileName: string }[] }>().attachments[0]!.fileName).toBe('xgnp.exe.png');
  });
});
