import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodes, webauthnChallenges } from '../src/db/schema.ts';
import { createDoctor, createStaff } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/sign-in.md, Second factor: the second factor. TOTP codes are computed here with otplib, as
 * an authenticator app computes them; passkey ceremonies are exercised in the browser test
 * (e2e/tests/second-factor.e2e.test.ts) with Chromium's virtual authenticator.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Staff = Awaited<ReturnType<typeof createStaff>>;
const password = 'staff-passphrase';

const post = (url: string, payload?: object, token: string | null = null) =>
  t.as(token, { method: 'POST', url, ...(payload && { payload }) });
const login = (username: string) => post('/api/auth/login', { username, password });
/** The fresh proof a change of a factor needs (second-factor-changes.test.ts tests it). */
async function prove(token: string) {
  expect((await post('/api/account/reauthenticate', { password }, token)).statusCode).toBe(200);
}

/** The code an app shows now, or `stepsAhead` time steps later (accepted one step ahead, for drift). */
const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** Sets up an authenticator app for a signed-in user: its secret and the recovery codes shown. */
async function enrolTotp(token: string) {
  await prove(token);
  const started = await post('/api/account/second-factor/totp', undefined, token);
  expect(started.statusCode).toBe(200);
  const { secret } = started.json<{ secret: string }>();
  const confirmed = await post('/api/account/second-factor/totp/confirm', { code: await codeFor(secret) }, token);
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

async function interimFor(username: string) {
  const response = await login(username);
  expect(response.statusCode).toBe(200);
  return response.json<{ secondFactor: string; interimToken: string; methods: string[] }>();
}

async function requireForRole(roleId: number, required: boolean) {
  const response = await t.as(await t.adminToken(), {
    method: 'PUT',
    url: `/api/role/second-factor/${roleId}`,
    payload: { required },
  });
  expect(response.statusCode).toBe(200);
}

describe('POST /auth/login with a second factor', () => {
  it('answers as before for a user with no factor whose role requires none', async () => {
    const staff = await createStaff(t, []);
    const response = await login(staff.username);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(
      ['createdAt', 'locale', 'message', 'profilePic', 'roleId', 'token', 'userId', 'userName', 'userType'].sort(),
    );
  });

  it('answers an interim token and the methods, without a session or cookie, once a factor is set up', async () => {
    const staff = await createStaff(t, [1]);
    await enrolTotp(staff.token);
    const response = await login(staff.username);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ secondFactor: 'verify', methods: ['totp', 'recovery'], expiresIn: 300 });
    expect(response.json().token).toBeUndefined();
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses the interim token everywhere but the second step', async () => {
    const staff = await createStaff(t, [1, 2]);
    await enrolTotp(staff.token);
    const { interimToken } = await interimFor(staff.username);
    for (const request of [
      { method: 'GET', url: '/api/role/get_roles_list' },
      { method: 'GET', url: '/api/account/second-factor' },
      { method: 'POST', url: '/api/auth/logout' },
    ] as const) {
      expect((await t.as(interimToken, request)).statusCode).toBe(401);
    }
    const asCookie = await t.app.inject({
      method: 'GET',
      url: '/api/role/get_roles_list',
      cookies: { token: interimToken },
    });
    expect(asCookie.statusCode).toBe(401);
  });

  it('refuses the second step, even with the right code, of a user deleted since the password step', async () => {
    const staff = await createStaff(t, []);
    const { secret } = await enrolTotp(staff.token);
    const { interimToken } = await interimFor(staff.username);
    const deleted = await t.as(await t.adminToken(), { method: 'DELETE', url: `/api/user/delete/${staff.userId}` });
    expect(deleted.statusCode).toBe(200);
    const response = await post('/api/auth/second-factor/totp', { interimToken, code: await codeFor(secret, 1) });
    expect(response.statusCode).toBe(401);
  });

  it('does not take a session token as the interim token', async () => {
    const staff = await createStaff(t, []);
    const response = await post('/api/auth/second-factor/totp', { interimToken: staff.token, code: '123456' });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/expired/);
  });
});

describe('POST /auth/second-factor/totp', () => {
  let staff: Staff;
  let secret: string;
  beforeAll(async () => {
    staff = await createStaff(t, [1]);
    ({ secret } = await enrolTotp(staff.token));
  });

  it('refuses a wrong code and then signs in with the right one; the session works', async () => {
    const { interimToken } = await interimFor(staff.username);
    const wrong = await post('/api/auth/second-factor/totp', { interimToken, code: '000000' });
    expect(wrong.statusCode).toBe(401);
    const right = await post('/api/auth/second-factor/totp', { interimToken, code: await codeFor(secret, 1) });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ userId: staff.userId, message: 'Login successful!' });
    expect(String(right.headers['set-cookie'])).toMatch(/token=.*HttpOnly/);
    const session = right.json<{ token: string }>().token;
    expect((await t.as(session, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(200);
  });

  it('does not accept a code twice, nor the interim token once used', async () => {
    const other = await createStaff(t, []);
    const enrolled = await enrolTotp(other.token);
    const first = await interimFor(other.username);
    const second = await interimFor(other.username);
    const code = await codeFor(enrolled.secret, 1);
    const accepted = await post('/api/auth/second-factor/totp', { interimToken: first.interimToken, code });
    expect(accepted.statusCode).toBe(200);
    const replayed = await post('/api/auth/second-factor/totp', { interimToken: second.interimToken, code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toMatch(/already used/);
    const recovery = { code: enrolled.recoveryCodes[0] };
    const reused = await post('/api/auth/second-factor/recovery', { interimToken: first.interimToken, ...recovery });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toMatch(/expired/);
    const fresh = await post('/api/auth/second-factor/recovery', { interimToken: second.interimToken, ...recovery });
    expect(fresh.statusCode).toBe(200);
  });

  it('does not accept the code that confirmed the app at the next sign-in', async () => {
    const other = await createStaff(t, []);
    await prove(other.token);
    const started = await post('/api/account/second-factor/totp', undefined, other.token);
    const code = await codeFor(started.json<{ secret: string }>().secret);
    expect((await post('/api/account/second-factor/totp/confirm', { code }, other.token)).statusCode).toBe(200);
    const { interimToken } = await interimFor(other.username);
    expect((await post('/api/auth/second-factor/totp', { interimToken, code })).statusCode).toBe(401);
  });

  it('refuses malformed codes with 400 and a field message', async () => {
    const { interimToken } = await interimFor(staff.username);
    const response = await post('/api/auth/second-factor/totp', { interimToken, code: '12ab' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ code: 'Enter the 6-digit code' });
  });
});

describe('POST /auth/second-factor/recovery', () => {
  it('signs in once per code; codes are stored hashed; new codes replace the old', async () => {
    const staff = await createStaff(t, []);
    const { recoveryCodes: shown } = await enrolTotp(staff.token);
    expect(shown).toHaveLength(10);
    expect(new Set(shown).size).toBe(10);
    for (const code of shown) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    const stored = await t.app.db
      .select({ codeHash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, staff.userId));
    const plain = shown[0]!.replaceAll('-', '');
    expect(stored.map((row) => row.codeHash)).toContain(createHash('sha256').update(plain).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(plain);

    const first = await interimFor(staff.username);
    const used = await post('/api/auth/second-factor/recovery', {
      interimToken: first.interimToken,
      code: shown[0]!.toLowerCase(),
    });
    expect(used.statusCode).toBe(200);
    const again = await interimFor(staff.username);
    const reused = await post('/api/auth/second-factor/recovery', { interimToken: again.interimToken, code: shown[0] });
    expect(reused.statusCode).toBe(401);

    const session = used.json<{ token: string }>().token;
    const mine = await t.as(session, { method: 'GET', url: '/api/account/second-factor' });
    expect(mine.json()).toMatchObject({ hasTotp: true, recoveryCodesLeft: 9, isRequired: false });
    await prove(session);
    const renewed = await post('/api/account/second-factor/recovery-codes', undefined, session);
    expect(renewed.statusCode).toBe(200);
    const oldCode = await post('/api/auth/second-factor/recovery', {
      interimToken: again.interimToken,
      code: shown[1],
    });
    expect(oldCode.statusCode).toBe(401);
    const newCode = await post('/api/auth/second-factor/recovery', {
      interimToken: again.interimToken,
      code: renewed.json<{ recoveryCodes: string[] }>().recoveryCodes[0],
    });
    expect(newCode.statusCode).toBe(200);
  });

  it('gives no recovery codes to a user without a factor', async () => {
    const staff = await createStaff(t, []);
    await prove(staff.token);
    const response = await post('/api/account/second-factor/recovery-codes', undefined, staff.token);
    expect(response.statusCode).toBe(409);
  });
});

describe('second-step throttling', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ loginAttemptsPerAccountAndAddress: 3, loginAttemptsPerAccount: 5 });
  });
  afterAll(() => limited.close());

  it('answers 429 after too many wrong codes for one account, even with the right code', async () => {
    const previous = t;
    t = limited;
    try {
      const staff = await createStaff(t, []);
      const { secret } = await enrolTotp(staff.token);
      const { interimToken } = await interimFor(staff.username);
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        statuses.push((await post('/api/auth/second-factor/totp', { interimToken, code: '000000' })).statusCode);
      }
      const right = await post('/api/auth/second-factor/totp', { interimToken, code: await codeFor(secret, 1) });
      expect(statuses).toEqual([401, 401, 401]);
      expect(right.statusCode).toBe(429);
      expect(right.headers['retry-after']).toBeDefined();
    } finally {
      t = previous;
    }
  });
});

describe('PUT /role/second-factor/:id', () => {
  it('is the administrator’s alone, and shows on the role list', async () => {
    const staff = await createStaff(t, [2]);
    const byStaff = await t.as(staff.token, {
      method: 'PUT',
      url: `/api/role/second-factor/${staff.roleId}`,
      payload: { required: true },
    });
    expect(byStaff.statusCode).toBe(403);
    await requireForRole(staff.roleId, true);
    // Read by the administrator: the staff's own session must now enrol first (enrolment-required.test.ts).
    const roles = await t.as(await t.adminToken(), { method: 'GET', url: '/api/role/get_roles_list' });
    const role = roles
      .json<{ RoleId: number; RequiresSecondFactor: boolean }[]>()
      .find((r) => r.RoleId === staff.roleId);
    expect(role?.RequiresSecondFactor).toBe(true);
    const unknown = await t.as(await t.adminToken(), {
      method: 'PUT',
      url: '/api/role/second-factor/99999',
      payload: { required: true },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('makes a user without a factor enrol at the next sign-in, with the interim token, and signs them in', async () => {
    const staff = await createStaff(t, [1]);
    await requireForRole(staff.roleId, true);
    const { secondFactor, interimToken, methods } = await interimFor(staff.username);
    expect({ secondFactor, methods }).toEqual({ secondFactor: 'enrol', methods: [] });
    // The enrolment token does not do the second step, nor anything else.
    expect((await post('/api/auth/second-factor/totp', { interimToken, code: '123456' })).statusCode).toBe(401);
    expect((await t.as(interimToken, { method: 'GET', url: '/api/role/get_roles_list' })).statusCode).toBe(401);
    expect((await t.as(interimToken, { method: 'DELETE', url: '/api/account/second-factor/totp' })).statusCode).toBe(
      401,
    );

    const mine = await t.as(interimToken, { method: 'GET', url: '/api/account/second-factor' });
    expect(mine.json()).toMatchObject({ isRequired: true, hasTotp: false, passkeys: [] });
    const passkeyOptions = await post('/api/account/second-factor/passkey/options', undefined, interimToken);
    expect(passkeyOptions.statusCode).toBe(200);
    const started = await post('/api/account/second-factor/totp', undefined, interimToken);
    const { secret, uri, qrCodeSvg } = started.json<{ secret: string; uri: string; qrCodeSvg: string }>();
    expect(uri).toContain(`secret=${secret}`);
    expect(qrCodeSvg).toMatch(/^<svg/);
    const confirmed = await post(
      '/api/account/second-factor/totp/confirm',
      { code: await codeFor(secret) },
      interimToken,
    );
    expect(confirmed.statusCode).toBe(200);
    const { signIn, recoveryCodes: shown } = confirmed.json<{ signIn: { token: string }; recoveryCodes: string[] }>();
    expect(shown).toHaveLength(10);
    expect((await t.as(signIn.token, { method: 'GET', url: '/api/role/get_roles_list' })).statusCode).toBe(403);
    expect((await t.as(signIn.token, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(200);
    // Used up by the enrolment.
    expect((await t.as(interimToken, { method: 'GET', url: '/api/account/second-factor' })).statusCode).toBe(401);

    // The last factor of a role that requires one stays.
    await prove(signIn.token);
    const removed = await t.as(signIn.token, { method: 'DELETE', url: '/api/account/second-factor/totp' });
    expect(removed.statusCode).toBe(409);
    await requireForRole(staff.roleId, false);
    const allowed = await t.as(signIn.token, { method: 'DELETE', url: '/api/account/second-factor/totp' });
    expect(allowed.statusCode).toBe(200);
    const plain = await login(staff.username);
    expect(plain.json().token).toEqual(expect.any(String));
    const left = await t.app.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, staff.userId));
    expect(left).toEqual([]);
  });

  it('covers doctors through the Doctor role', async () => {
    const doctor = await createDoctor(t, { active: true });
    await requireForRole(19, true);
    try {
      const response = await post('/api/auth/login', { username: doctor.username, password: doctor.password });
      expect(response.json()).toMatchObject({ secondFactor: 'enrol' });
    } finally {
      await requireForRole(19, false);
    }
  });
});

describe('POST /account/second-factor/totp/confirm', () => {
  it('refuses a wrong code with a field message and leaves the app unconfirmed', async () => {
    const staff = await createStaff(t, []);
    await prove(staff.token);
    await post('/api/account/second-factor/totp', undefined, staff.token);
    const wrong = await post('/api/account/second-factor/totp/confirm', { code: '000000' }, staff.token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors.code).toMatch(/not right/);
    const mine = await t.as(staff.token, { method: 'GET', url: '/api/account/second-factor' });
    expect(mine.json()).toMatchObject({ hasTotp: false, recoveryCodesLeft: 0 });
    expect((await login(staff.username)).json().token).toEqual(expect.any(String));
  });

  it('refuses a second app while one is set up, and a confirm with nothing started', async () => {
    const staff = await createStaff(t, []);
    await prove(staff.token);
    expect((await post('/api/account/second-factor/totp/confirm', { code: '123456' }, staff.token)).statusCode).toBe(
      409,
    );
    await enrolTotp(staff.token);
    expect((await post('/api/account/second-factor/totp', undefined, staff.token)).statusCode).toBe(409);
  });
});

describe('passkeys', () => {
  it('hands out registration options for this portal and keeps the challenge once', async () => {
    const staff = await createStaff(t, []);
    await prove(staff.token);
    const response = await post('/api/account/second-factor/passkey/options', undefined, staff.token);
    expect(response.statusCode).toBe(200);
    const options = response.json();
    expect(options.rp).toEqual({ id: 'portal.test', name: 'Aligner Portal' });
    expect(options.user.name).toBe(staff.username);
    expect(options.authenticatorSelection.residentKey).toBe('required');
    const kept = await t.app.db
      .select()
      .from(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, options.challenge));
    expect(kept).toMatchObject([{ purpose: 'register', userId: staff.userId }]);
  });

  const forgedCredential = {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', attestationObject: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    clientExtensionResults: {},
  };

  it('refuses a registration that is not a real authenticator answer, keeping nothing', async () => {
    const staff = await createStaff(t, []);
    await prove(staff.token);
    await post('/api/account/second-factor/passkey/options', undefined, staff.token);
    const response = await post('/api/account/second-factor/passkey', { credential: forgedCredential }, staff.token);
    expect(response.statusCode).toBe(400);
    const mine = await t.as(staff.token, { method: 'GET', url: '/api/account/second-factor' });
    expect(mine.json().passkeys).toEqual([]);
  });

  it('hands out sign-in options for a passkey alone and refuses an unknown credential', async () => {
    const options = await post('/api/auth/passkey/options');
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({ rpId: 'portal.test', userVerification: 'required' });
    expect(options.json().allowCredentials).toBeUndefined();
    const response = await post('/api/auth/passkey', { credential: forgedCredential });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('That passkey could not be verified.');
  });

  it('refuses a second step with a passkey the user does not have', async () => {
    const staff = await createStaff(t, []);
    await enrolTotp(staff.token);
    const { interimToken } = await interimFor(staff.username);
    const options = await post('/api/auth/second-factor/passkey/options', { interimToken });
    expect(options.statusCode).toBe(200);
    expect(options.json().allowCredentials).toEqual([]);
    const response = await post('/api/auth/second-factor/passkey', { interimToken, credential: forgedCredential });
    expect(response.statusCode).toBe(401);
  });

  it('does not remove another user’s passkey (404)', async () => {
    const staff = await createStaff(t, []);
    const response = await t.as(staff.token, { method: 'DELETE', url: '/api/account/second-factor/passkey/1' });
    expect(response.statusCode).toBe(404);
  });
});
