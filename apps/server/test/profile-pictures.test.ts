import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allRows,
  type CreatedDoctor,
  createDoctor,
  createStaff,
  formData,
  makeImage,
  uniqueName,
} from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

interface UserRow {
  UserId: number;
  UserName: string;
  ProfilePic: string | null;
}

const typeMessage = 'Only JPG and PNG files are allowed!';

let t: TestApp;
let admin: string;
let roleId: number;
let doctor: CreatedDoctor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  roleId = (await createStaff(t, [])).roleId;
  doctor = await createDoctor(t, { active: true });
});
afterAll(() => t.close());

function userFields(overrides: Record<string, string | number> = {}) {
  const username = uniqueName('pic');
  return {
    username,
    firstname: 'Pia',
    lastname: 'Picture',
    password: 'picture-pass',
    email: `${username}@lab.test`,
    mobileNo: '5550123',
    roleId,
    userType: 'Web',
    ...overrides,
  };
}

const png = async () => ({ data: await makeImage('png', 400), name: 'face.png', type: 'image/png' });
const jpeg = async () => ({ data: await makeImage('jpeg', 300), name: 'face.jpg', type: 'image/jpeg' });

async function listUsers(): Promise<UserRow[]> {
  return allRows<UserRow>(t, admin, '/api/user/get_users_list');
}

/** Every stored file under the test app's dataDir/files, relative to it. */
async function storedFiles(): Promise<string[]> {
  const root = path.join(t.dataDir, 'files');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Adds a user with a picture; returns the user's id and ProfilePic. */
async function addUserWithPicture(file: { data: Buffer; name: string; type: string }) {
  const fields = userFields();
  const response = await t.as(admin, {
    method: 'POST',
    url: '/api/user/add',
    payload: formData(fields, { profilePic: file }),
  });
  expect(response.statusCode).toBe(200);
  const userId = response.json<{ UserId: number }>().UserId;
  const profilePic = (await listUsers()).find((row) => row.UserId === userId)!.ProfilePic!;
  return { ...fields, userId, profilePic };
}

const avatarsOf = (profilePic: string) => [
  profilePic,
  profilePic.replace(/\.(png|jpg)$/, '_32x32.$1'),
  profilePic.replace(/\.(png|jpg)$/, '_90x90.$1'),
];

describe('POST /user/add with a profile picture', () => {
  it('stores a PNG as /api/uploads/users/{id}/{16 hex}.png with two avatars', async () => {
    const before = await storedFiles();
    const user = await addUserWithPicture(await png());
    expect(user.profilePic).toMatch(new RegExp(`^/api/uploads/users/${user.userId}/[a-f0-9]{16}\\.png$`));
    const name = path.basename(user.profilePic, '.png');
    const added = (await storedFiles()).filter((file) => !before.includes(file));
    expect(added.sort()).toEqual(
      [`${name}.png`, `${name}_32x32.png`, `${name}_90x90.png`]
        .map((file) => path.join('users', String(user.userId), file))
        .sort(),
    );
  });

  it('stores a JPEG as .jpg', async () => {
    const user = await addUserWithPicture(await jpeg());
    expect(user.profilePic).toMatch(new RegExp(`^/api/uploads/users/${user.userId}/[a-f0-9]{16}\\.jpg$`));
  });

  it('judges the bytes, not the name: a PNG named .jpg stays a PNG', async () => {
    const user = await addUserWithPicture({ data: await makeImage('png'), name: 'face.jpg', type: 'image/jpeg' });
    expect(user.profilePic).toMatch(/\.png$/);
  });

  it(`refuses an .exe or a text file named .png with '${typeMessage}', leaving no user and no file`, async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(400, 0x90)]);
    const text = Buffer.from('just some text pretending to be an image\n'.repeat(20));
    const usersBefore = await listUsers();
    const filesBefore = await storedFiles();
    for (const data of [exe, text]) {
      const fields = userFields();
      const response = await t.as(admin, {
        method: 'POST',
        url: '/api/user/add',
        payload: formData(fields, { profilePic: { data, name: 'face.png', type: 'image/png' } }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: typeMessage, fieldErrors: { profilePic: typeMessage } });
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { username: fields.username, password: fields.password },
          })
        ).statusCode,
      ).toBe(401);
    }
    expect(await listUsers()).toEqual(usersBefore);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('refuses a truncated PNG without a 5xx, leaving no user and no file', async () => {
    const usersBefore = await listUsers();
    const filesBefore = await storedFiles();
    const broken = (await makeImage('png', 400)).subarray(0, 60);
    const response = await t.as(admin, {
      method: 'POST',
      url: '/api/user/add',
      payload: formData(userFields(), { profilePic: { data: broken, name: 'face.png', type: 'image/png' } }),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fieldErrors)).toEqual(['profilePic']);
    expect(await listUsers()).toEqual(usersBefore);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it('writes no file when the user is refused for another reason', async () => {
    const existing = await addUserWithPicture(await png());
    const usersBefore = await listUsers();
    const filesBefore = await storedFiles();
    const duplicate = await t.as(admin, {
      method: 'POST',
      url: '/api/user/add',
      payload: formData(userFields({ username: existing.username }), { profilePic: await png() }),
    });
    expect(duplicate.statusCode).toBe(409);
    expect(await listUsers()).toEqual(usersBefore);
    expect(await storedFiles()).toEqual(filesBefore);
  });
});

describe('GET and HEAD /uploads/users/:userId/:fileName', () => {
  it('serves the picture and both avatars with an image type and nosniff, kept by no cache', async () => {
    const user = await addUserWithPicture(await png());
    for (const url of avatarsOf(user.profilePic)) {
      const got = await t.as(admin, { method: 'GET', url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['cache-control']).toBe('private, no-store');
      const head = await t.as(admin, { method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('image/png');
      expect(head.headers['x-content-type-options']).toBe('nosniff');
      expect(Number(head.headers['content-length'])).toBe(got.rawPayload.length);
      expect(head.rawPayload.length).toBe(0);
    }
  });

  it('makes the avatars really 32x32 and 90x90, and keeps the picture an image', async () => {
    const user = await addUserWithPicture(await jpeg());
    const [picture, small, medium] = await Promise.all(
      avatarsOf(user.profilePic).map((url) => t.as(admin, { method: 'GET', url })),
    );
    expect(picture!.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(picture!.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 300 });
    expect(await sharp(small!.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 32, height: 32 });
    expect(await sharp(medium!.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 90, height: 90 });
  });

  it('serves any signed-in Web user, also by the cookie an <img> sends', async () => {
    const user = await addUserWithPicture(await png());
    const staff = await createStaff(t, []);
    expect((await t.as(staff.token, { method: 'GET', url: user.profilePic })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: user.profilePic, cookies: { token: staff.token } })).statusCode,
    ).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const user = await addUserWithPicture(await png());
    for (const method of ['GET', 'HEAD'] as const) {
      expect((await t.as(null, { method, url: user.profilePic })).statusCode).toBe(401);
    }
  });

  it("hides a Web user's picture from a doctor (404)", async () => {
    const user = await addUserWithPicture(await png());
    for (const url of avatarsOf(user.profilePic)) {
      const response = await t.as(doctor.token!, { method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Picture not found');
    }
  });

  it('answers 404 for a picture that does not exist and 400 for a name the server never makes', async () => {
    const user = await addUserWithPicture(await png());
    expect((await t.as(admin, { method: 'GET', url: user.profilePic.replace(/\.png$/, '.jpg') })).statusCode).toBe(404);
    expect(
      (await t.as(admin, { method: 'HEAD', url: `/api/uploads/users/${user.userId}/0123456789abcdef_32x32.png` }))
        .statusCode,
    ).toBe(404);
    for (const fileName of ['..%2F..%2Fsecret.png', 'face.png', '0123456789abcdef.exe', '0123456789abcdef_64x64.png']) {
      expect(
        (await t.as(admin, { method: 'GET', url: `/api/uploads/users/${user.userId}/${fileName}` })).statusCode,
      ).toBe(400);
    }
  });
});

describe('PUT /user/edit/:id and the profile picture', () => {
  it('removes the picture with removeProfilePic=true and deletes its files', async () => {
    const user = await addUserWithPicture(await png());
    const filesBefore = await storedFiles();
    const { profilePic, userId, ...fields } = user;
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${userId}`,
      payload: formData({ ...fields, password: '', removeProfilePic: 'true' }),
    });
    expect(response.statusCode).toBe(200);
    expect((await listUsers()).find((row) => row.UserId === userId)!.ProfilePic).toBeNull();
    for (const url of avatarsOf(profilePic)) expect((await t.as(admin, { method: 'GET', url })).statusCode).toBe(404);
    expect(filesBefore.filter((file) => !file.startsWith(`users/${userId}/`))).toEqual(await storedFiles());
  });

  it('replaces the picture with a new one and deletes the old files', async () => {
    const user = await addUserWithPicture(await png());
    const { profilePic: oldPic, userId, ...fields } = user;
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${userId}`,
      payload: formData({ ...fields, password: '' }, { profilePic: await jpeg() }),
    });
    expect(response.statusCode).toBe(200);
    const newPic = (await listUsers()).find((row) => row.UserId === userId)!.ProfilePic!;
    expect(newPic).toMatch(new RegExp(`^/api/uploads/users/${userId}/[a-f0-9]{16}\\.jpg$`));
    for (const url of avatarsOf(oldPic)) expect((await t.as(admin, { method: 'GET', url })).statusCode).toBe(404);
    for (const url of avatarsOf(newPic)) expect((await t.as(admin, { method: 'GET', url })).statusCode).toBe(200);
    expect((await storedFiles()).filter((file) => file.startsWith(`users/${userId}/`))).toHaveLength(3);
  });

  it('keeps the picture when the edit sends none', async () => {
    const user = await addUserWithPicture(await png());
    const { profilePic, userId, ...fields } = user;
    expect(
      (
        await t.as(admin, {
          method: 'PUT',
          url: `/api/user/edit/${userId}`,
          payload: formData({ ...fields, firstname: 'Renamed', password: '' }),
        })
      ).statusCode,
    ).toBe(200);
    expect((await listUsers()).find((row) => row.UserId === userId)!.ProfilePic).toBe(profilePic);
    expect((await t.as(admin, { method: 'GET', url: profilePic })).statusCode).toBe(200);
  });

  it('refuses a bad file on edit and keeps the old picture and its files', async () => {
    const user = await addUserWithPicture(await png());
    const { profilePic, userId, ...fields } = user;
    const usersBefore = await listUsers();
    const filesBefore = await storedFiles();
    const response = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/edit/${userId}`,
      payload: formData(
        { ...fields, firstname: 'Changed', password: '' },
        { profilePic: { data: Buffer.from('%PDF-1.4 not an image'), name: 'face.png', type: 'image/png' } },
      ),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ profilePic: typeMessage });
    expect(await listUsers()).toEqual(usersBefore);
    expect(await storedFiles()).toEqual(filesBefore);
    expect((await t.as(admin, { method: 'GET', url: profilePic })).statusCode).toBe(200);
  });
});
