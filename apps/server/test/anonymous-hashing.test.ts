import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hash } from '@node-rs/argon2';
import { tooManyRequests } from '../src/routes/doctors/index.ts';
import { createResetLink } from '../src/services/password-reset.ts';
import { allRows, createDoctor, doctorFields, firstCityOf, formData, makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

// The real argon2 hash, counted where the library is called: the point is which requests reach
// it, whichever of the server's functions (hashPassword, hashNewPassword) makes the call.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...original, hash: vi.fn(original.hash) };
});
const hashes = vi.mocked(hash);

const limit = 4;
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

let t: TestApp;
let cityId: number;
beforeAll(async () => {
  t = await createTestApp({ loginAttemptsPerAddress: limit });
  cityId = await firstCityOf(t);
});
afterAll(() => t?.close());
// Braces: a function returned from beforeEach would be run as its cleanup.
beforeEach(() => {
  hashes.mockClear();
});

const registration = (overrides: Record<string, string | number | boolean> = {}) =>
  doctorFields({
    clinicList: JSON.stringify([
      { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
    ]),
    ...overrides,
  });

const register = (from: string, fields = registration(), files = {}) =>
  t.app.inject({ method: 'POST', url: '/api/doctor/add', payload: formData(fields, files), remoteAddress: from });

const reset = (from: string, token = 'bogus-token') =>
  t.app.inject({
    method: 'POST',
    url: '/api/doctor/reset_password',
    payload: { token, newPassword: 'a-new-password' },
    remoteAddress: from,
  });

describe('anonymous endpoints that hash a password are throttled per address (429 with Retry-After)', () => {
  it('password resets: the attempt after the limit is refused, another address is not', async () => {
    const from = freshAddress();
    for (let i = 0; i < limit; i++) expect((await reset(from)).statusCode).toBe(400);
    const refused = await reset(from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: tooManyRequests });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await reset(freshAddress())).statusCode).toBe(400);
  });

  it('registrations and resets share one budget per address, and a refused registration leaves no account', async () => {
    const from = freshAddress();
    for (let i = 0; i < limit - 1; i++) expect((await reset(from)).statusCode).toBe(400);
    expect((await register(from)).statusCode).toBe(200);
    const fields = registration();
    const refused = await register(from, fields);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const list = await allRows<{ UserName: string }>(t, await t.adminToken(), '/api/doctor/get_doctors_list');
    expect(list.map((doctor) => doctor.UserName)).not.toContain(fields.username);
  });

  it('staff adding doctors from the Doctors page are not counted', async () => {
    const from = freshAddress();
    const admin = await t.adminToken();
    for (let i = 0; i < limit + 1; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/doctor/add',
        headers: { authorization: `Bearer ${admin}` },
        payload: formData({ ...registration(), isActive: 'false' }),
        remoteAddress: from,
      });
      expect(response.statusCode).toBe(200);
    }
  });
});

describe('the cheap refusals come before the argon2 hash', () => {
  it('a bogus or used reset token is refused without hashing the new password', async () => {
    expect((await reset(freshAddress())).json()).toMatchObject({ success: false });
    expect(hashes).not.toHaveBeenCalled();

    const doctor = await createDoctor(t);
    const link = await createResetLink(t.app.db, doctor.userId, t.config.publicUrl);
    const token = new URL(link).searchParams.get('token')!;
    hashes.mockClear();
    expect((await reset(freshAddress(), token)).json()).toMatchObject({ success: true });
    expect(hashes).toHaveBeenCalledTimes(1);
    hashes.mockClear();
    expect((await reset(freshAddress(), token)).json()).toMatchObject({ success: false });
    expect(hashes).not.toHaveBeenCalled();
  });
});

/**
 * Issue 20: a taken username was refused at once (26-107 ms) and a free one hashed (about
 * 293 ms): the answer's time told which names exist. Both now do the same work.
 */
describe('a registration takes the same work whether its username is free or taken', () => {
  it('hashes the password once either way (any case, or the fullwidth form of a taken name)', async () => {
    const owner = await createDoctor(t);
    const fullwidth = [...owner.username].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
    for (const username of [undefined, owner.username.toUpperCase(), fullwidth]) {
      hashes.mockClear();
      const response = await register(freshAddress(), registration(username ? { username } : {}));
      expect(response.statusCode).toBe(200);
      expect(hashes).toHaveBeenCalledTimes(1);
    }
  });
});

describe('a profile picture over the pixel limit is refused from its header, before decoding', () => {
  it('a 6000x6000 PNG is 400 with a clear message, no hash and no account; 6000x4000 is taken', async () => {
    const huge = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const fields = registration();
    const started = performance.now();
    const response = await register(freshAddress(), fields, {
      profilePic: { data: huge, name: 'huge.png', type: 'image/png' },
    });
    const elapsed = performance.now() - started;
    console.log(`[figure] 6000x6000 profile picture refused in ${elapsed.toFixed(0)} ms`);
    expect(response.statusCode).toBe(400);
    const message = 'The picture is too large: at most 25 megapixels (such as 6000x4000).';
    expect(response.json()).toEqual({
      message,
      fieldErrors: { profilePic: message },
      code: 'pictureTooLarge',
      params: { megapixels: 25 },
    });
    expect(hashes).not.toHaveBeenCalled();
    const list = await allRows<{ UserName: string }>(t, await t.adminToken(), '/api/doctor/get_doctors_list');
    expect(list.map((doctor) => doctor.UserName)).not.toContain(fields.username);

    const large = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const taken = await register(freshAddress(), registration(), {
      profilePic: { data: large, name: 'large.jpg', type: 'image/jpeg' },
    });
    expect(taken.statusCode).toBe(200);
    // A small one is of course fine too.
    const small = await register(freshAddress(), registration(), {
      profilePic: { data: await makeImage('png'), name: 'small.png', type: 'image/png' },
    });
    expect(small.statusCode).toBe(200);
  });
});
