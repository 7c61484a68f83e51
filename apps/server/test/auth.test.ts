import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDoctor } from './helpers/factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /auth/login', () => {
  it('signs the administrator in with every answer field and an httpOnly cookie', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: testAdmin });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      userName: 'admin',
      userType: 'Web',
      roleId: -1,
      profilePic: null,
      message: 'Login successful!',
    });
    expect(typeof body.userId).toBe('number');
    expect(new Date(body.createdAt).toString()).not.toBe('Invalid Date');
    const [, payload] = body.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims.exp).toBeLessThan(Date.now() / 1000 + 3601);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('gives the same 401 for an unknown user and a wrong password', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'nobody', password: 'whatever' },
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'wrong-one' },
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().message).toBe('Invalid username or password');
  });

  it('answers 401, not 500, for a username with a lone surrogate (JSON "\\ud800", found by the fuzzer)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"\\ud800","password":"admin-password"}',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Invalid username or password');
  });

  it('requires username and password with the spec messages; whitespace counts as empty', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: '   ', password: ' ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ username: 'Username is required', password: 'Password is required' });
  });

  it('tells an inactive doctor so only after a correct password', async () => {
    const doctor = await createDoctor(t);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: doctor.username, password: doctor.password },
    });
    expect(right.statusCode).toBe(403);
    expect(right.json().message).toMatch(/not active/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: doctor.username, password: 'not-the-one' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid username or password');
  });

  it('accepts the username in any letter case', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'ADMIN', password: testAdmin.password },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('login throttling', () => {
  const attemptFrom = (app: TestApp, from: string, password: string, username = testAdmin.username) =>
    app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: from });

  it('a stranger cannot lock an account: wrong passwords refuse that address only, the owner elsewhere signs in', async () => {
    const throttled = await createTestApp({
      loginAttemptsPerAccountAndAddress: 3,
      loginAttemptsPerAccount: 100,
      loginAttemptsPerAddress: 100,
    });
    try {
      for (let i = 0; i < 3; i++) expect((await attemptFrom(throttled, '10.9.9.9', 'wrong')).statusCode).toBe(401);
      const refused = await attemptFrom(throttled, '10.9.9.9', testAdmin.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/Too many sign-in attempts/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The owner, from an address with no failures, still signs in.
      expect((await attemptFrom(throttled, '10.1.1.1', testAdmin.password)).statusCode).toBe(200);
      // Another account from the attacker's address is still served.
      expect((await attemptFrom(throttled, '10.9.9.9', 'x', 'someone')).statusCode).toBe(401);
    } finally {
      await throttled.close();
    }
  });

  it('keeps a higher ceiling per account across addresses against password spraying', async () => {
    const throttled = await createTestApp({
      loginAttemptsPerAccountAndAddress: 100,
      loginAttemptsPerAccount: 4,
      loginAttemptsPerAddress: 100,
    });
    try {
      for (let i = 0; i < 4; i++) expect((await attemptFrom(throttled, `10.2.0.${i}`, 'wrong')).statusCode).toBe(401);
      expect((await attemptFrom(throttled, '10.2.1.1', testAdmin.password)).statusCode).toBe(429);
    } finally {
      await throttled.close();
    }
  });

  it('does not count right passwords, and counts parallel guesses exactly', async () => {
    const throttled = await createTestApp({
      loginAttemptsPerAccountAndAddress: 3,
      loginAttemptsPerAccount: 100,
      loginAttemptsPerAddress: 100,
    });
    try {
      for (let i = 0; i < 6; i++)
        expect((await attemptFrom(throttled, '10.3.3.3', testAdmin.password)).statusCode).toBe(200);
      const guesses = await Promise.all(Array.from({ length: 8 }, () => attemptFrom(throttled, '10.4.4.4', 'wrong')));
      const statuses = guesses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    } finally {
      await throttled.close();
    }
  });

  it('refuses an address with 429 after too many attempts across accounts', async () => {
    const throttled = await createTestApp({ loginAttemptsPerAccount: 100, loginAttemptsPerAddress: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await throttled.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: `user${i}`, password: 'x' },
        });
        expect(response.statusCode).toBe(401);
      }
      const refused = await throttled.app.inject({ method: 'POST', url: '/api/auth/login', payload: testAdmin });
      expect(refused.statusCode).toBe(429);
    } finally {
      await throttled.close();
    }
  });
});

describe('POST /auth/logout', () => {
  it("ends the session (its token refused), clears the cookie and the browser's cache of the portal", async () => {
    const token = await t.login(testAdmin.username, testAdmin.password);
    const before = await t.as(token, { method: 'GET', url: '/api/role/get_roles_list' });
    expect(before.statusCode).toBe(200);
    const logout = await t.as(token, { method: 'POST', url: '/api/auth/logout' });
    expect(logout.statusCode).toBe(200);
    expect(String(logout.headers['set-cookie'])).toMatch(/token=;/);
    expect(logout.headers['clear-site-data']).toBe('"cache"');
    const after = await t.as(token, { method: 'GET', url: '/api/role/get_roles_list' });
    expect(after.statusCode).toBe(401);
  });

  it('needs a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(401);
  });
});

describe('tokens', () => {
  it('refuses a missing, malformed or tampered token with 401', async () => {
    const token = await t.adminToken();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '999' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const bad of [null, 'garbage', tampered, none]) {
      const response = await t.as(bad, { method: 'GET', url: '/api/role/get_roles_list' });
      expect(response.statusCode).toBe(401);
    }
  });

  it('accepts the cookie for GET but not for changes (no cross-site writes)', async () => {
    const token = await t.adminToken();
    const read = await t.app.inject({ method: 'GET', url: '/api/role/get_roles_list', cookies: { token } });
    expect(read.statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/role/add',
      cookies: { token },
      payload: { roleName: 'ViaCookie' },
    });
    expect(write.statusCode).toBe(401);
  });
});
