import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT, type JWTPayload } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  formData,
  mailedResetToken,
  type CreatedDoctor,
} from './helpers/factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/sign-in.md, Tokens: each attack against a real signed-in route (the case list),
 * answered 401 with `{ message }` only. Every attack first has a control that the same
 * route answers 200 to, so a 401 is the attack's doing and not a broken route.
 */

let t: TestApp;
let admin: string;
const caseList = '/api/case/get_cases_by_status/all/0';
const attempts = { tried: 0, refused: 0 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(async () => {
  console.log(`[figure] token attacks: ${attempts.refused} refused of ${attempts.tried}`);
  await t.close();
});

type Via = 'bearer' | 'cookie';

function callWith(token: string, via: Via): Promise<LightMyRequestResponse> {
  return via === 'bearer'
    ? t.as(token, { method: 'GET', url: caseList })
    : t.app.inject({ method: 'GET', url: caseList, cookies: { token } });
}

async function expectAccepted(token: string, via: Via = 'bearer') {
  const response = await callWith(token, via);
  expect(response.statusCode, response.body).toBe(200);
}

/** 401, a body of exactly `{ message }`, nothing of a stack trace. */
async function expectRefused(token: string, via: Via = 'bearer') {
  attempts.tried++;
  const response = await callWith(token, via);
  expect(response.statusCode, response.body).toBe(401);
  expect(response.json()).toEqual({ message: expect.any(String) });
  expect(response.body).not.toMatch(/stack|\.ts:\d+|at \w+ \(/i);
  attempts.refused++;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const appKey = () => new TextEncoder().encode(t.config.jwtSecret);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Claims signed with `key` (the app's own by default), as the app would sign them. */
function sign(claims: JWTPayload, options: { key?: Uint8Array; alg?: string } = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .sign(options.key ?? appKey());
}

/** The token's header and signature with other claims: what an attacker can make without the key. */
function withClaims(token: string, claims: JWTPayload): string {
  const [header, , signature] = token.split('.');
  return `${header}.${base64url(claims)}.${signature}`;
}

describe('forged tokens', () => {
  it('refuses alg: none, with an empty signature and with the original one', async () => {
    const claims = decodeJwt(admin);
    const header = base64url({ alg: 'none', typ: 'JWT' });
    const signature = admin.split('.')[2];
    await expectAccepted(admin);
    await expectRefused(`${header}.${base64url(claims)}.`);
    await expectRefused(`${header}.${base64url(claims)}.${signature}`);
  });

  it('refuses malformed tokens: empty parts, non-JSON parts, a huge token', async () => {
    const [header, payload, signature] = admin.split('.');
    for (const malformed of [
      '..',
      'a.b.c',
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.extra`,
      `${Buffer.from('not json').toString('base64url')}.${payload}.${signature}`,
      `${header}.${Buffer.from('not json').toString('base64url')}.${signature}`,
      `${header}.${base64url([1, 2, 3])}.${signature}`,
      `${header}.${payload}.${'A'.repeat(12_000)}`,
    ]) {
      await expectRefused(malformed, 'bearer');
      await expectRefused(malformed, 'cookie');
    }
  });

  it('refuses a token signed with another key', async () => {
    const claims = decodeJwt(admin);
    await expectAccepted(await sign(claims));
    await expectRefused(await sign(claims, { key: randomBytes(32) }));
  });

  it("refuses an algorithm other than HS256, even with the app's key", async () => {
    const claims = decodeJwt(admin);
    await expectRefused(await sign(claims, { alg: 'HS512' }));
  });

  it('refuses a changed claim under the old signature: userId, roleId, userType, exp', async () => {
    const staff = await createStaff(t, [1]);
    await expectAccepted(staff.token);
    const claims = decodeJwt(staff.token);
    await expectAccepted(withClaims(staff.token, claims));
    const adminUserId = decodeJwt(admin).sub;
    await expectRefused(withClaims(staff.token, { ...claims, sub: adminUserId }));
    await expectRefused(withClaims(staff.token, { ...claims, roleId: -1 }));
    await expectRefused(withClaims(staff.token, { ...claims, userType: 'Doctor' }));
    await expectRefused(withClaims(staff.token, { ...claims, exp: claims.exp! + 86_400 }));
  });
});

describe('expiry', () => {
  it("refuses an expired token correctly signed with the app's secret, as bearer and as cookie", async () => {
    const claims = decodeJwt(admin);
    await expectAccepted(await sign({ ...claims, iat: nowSeconds() - 3600, exp: nowSeconds() + 60 }));
    const expired = await sign({ ...claims, iat: nowSeconds() - 3600, exp: nowSeconds() - 60 });
    await expectRefused(expired, 'bearer');
    await expectRefused(expired, 'cookie');
  });

  it('refuses a correctly signed token without exp', async () => {
    const { exp: _exp, ...claims } = decodeJwt(admin);
    await expectRefused(await sign(claims));
  });

  it('refuses a correctly signed token missing sub, jti or ver', async () => {
    const claims = decodeJwt(admin);
    for (const name of ['sub', 'jti', 'ver']) {
      const { [name]: _dropped, ...rest } = claims;
      await expectRefused(await sign(rest));
    }
  });

  it('refuses a token once it expires, though it was verified and cached before', async () => {
    const exp = nowSeconds() + 2;
    const shortLived = await sign({ ...decodeJwt(admin), exp });
    await expectAccepted(shortLived, 'bearer');
    await expectAccepted(shortLived, 'cookie');
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 100));
    await expectRefused(shortLived, 'bearer');
    await expectRefused(shortLived, 'cookie');
  });
});

describe('revoked tokens (each used first, so it sits in the verified-token cache)', () => {
  const editDoctor = async (token: string, doctor: CreatedDoctor, overrides: Record<string, string>) =>
    t.as(token, {
      method: 'PUT',
      url: `/api/doctor/edit/${doctor.doctorId}`,
      payload: formData(await doctorEditFields(t, doctor, overrides)),
    });

  it('refuses the token after logout, as bearer and as cookie', async () => {
    const token = await t.login(testAdmin.username, testAdmin.password);
    await expectAccepted(token, 'bearer');
    await expectAccepted(token, 'cookie');
    expect((await t.as(token, { method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
    await expectRefused(token, 'bearer');
    await expectRefused(token, 'cookie');
  });

  it("refuses a Web user's token after the user is deleted", async () => {
    const staff = await createStaff(t, [1]);
    await expectAccepted(staff.token);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/delete/${staff.userId}` })).statusCode).toBe(200);
    await expectRefused(staff.token, 'bearer');
    await expectRefused(staff.token, 'cookie');
  });

  it("refuses a doctor's token after the doctor is deleted", async () => {
    const doctor = await createDoctor(t, { active: true });
    await expectAccepted(doctor.token!);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/doctor/delete/${doctor.doctorId}` })).statusCode).toBe(
      200,
    );
    await expectRefused(doctor.token!);
  });

  it("refuses a doctor's token after the doctor is deactivated", async () => {
    const doctor = await createDoctor(t, { active: true });
    await expectAccepted(doctor.token!);
    expect((await editDoctor(admin, doctor, { isActive: 'false' })).statusCode).toBe(200);
    await expectRefused(doctor.token!, 'bearer');
    await expectRefused(doctor.token!, 'cookie');
  });

  it('refuses the old token after a password change through PUT /user/edit', async () => {
    const staff = await createStaff(t, [1]);
    await expectAccepted(staff.token);
    const edit = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${staff.userId}`,
      payload: formData({
        username: staff.username,
        firstname: 'Sam',
        lastname: 'Staff',
        password: 'changed-pass',
        email: `${staff.username}@lab.test`,
        mobileNo: '5550101',
        roleId: staff.roleId,
      }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await expectRefused(staff.token);
    await expectAccepted(await t.login(staff.username, 'changed-pass'));
  });

  it('refuses the old token after the doctor changes their password through PUT /doctor/edit', async () => {
    const doctor = await createDoctor(t, { active: true });
    await expectAccepted(doctor.token!);
    expect(
      (await editDoctor(doctor.token!, doctor, { password: 'changed-pass', currentPassword: doctor.password }))
        .statusCode,
    ).toBe(200);
    await expectRefused(doctor.token!);
    await expectAccepted(await t.login(doctor.username, 'changed-pass'));
  });

  it('refuses the old token after a password reset through POST /doctor/reset_password', async () => {
    const doctor = await createDoctor(t, { active: true });
    await expectAccepted(doctor.token!);
    const resetToken = await mailedResetToken(t, doctor);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token: resetToken, newPassword: 'reset-passphrase' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await expectRefused(doctor.token!, 'bearer');
    await expectRefused(doctor.token!, 'cookie');
  });
});
