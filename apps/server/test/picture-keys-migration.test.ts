import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createDoctor, type CreatedDoctor } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const migration = new URL('../drizzle/0005_profile_pic_keys.sql', import.meta.url);

let t: TestApp;
let doctors: CreatedDoctor[];

beforeAll(async () => {
  t = await createTestApp();
  doctors = [await createDoctor(t), await createDoctor(t), await createDoctor(t)];
});
afterAll(() => t.close());

const setPicture = (userId: number, profilePic: string | null) =>
  t.app.db.update(users).set({ profilePic }).where(eq(users.userId, userId));

const pictureOf = async (userId: number) =>
  (await t.app.db.select({ profilePic: users.profilePic }).from(users).where(eq(users.userId, userId)))[0]!.profilePic;

describe('migration 0005: profile pictures stored by key', () => {
  it('turns stored /api/uploads addresses into storage keys and leaves keys and empty pictures alone', async () => {
    const [withAddress, withKey, without] = doctors.map((doctor) => doctor.userId) as [number, number, number];
    await setPicture(withAddress, `/api/uploads/users/${withAddress}/0123456789abcdef.png`);
    await setPicture(withKey, `users/${withKey}/fedcba9876543210.jpg`);
    await setPicture(without, null);
    await t.app.db.execute(sql.raw(await readFile(migration, 'utf8')));
    expect(await pictureOf(withAddress)).toBe(`users/${withAddress}/0123456789abcdef.png`);
    expect(await pictureOf(withKey)).toBe(`users/${withKey}/fedcba9876543210.jpg`);
    expect(await pictureOf(without)).toBeNull();
  });

  it('answers the same address as before from the converted key', async () => {
    const { userId } = doctors[0]!;
    const response = await t.as(await t.adminToken(), {
      method: 'GET',
      url: `/api/doctor/get_doctor_detail_by_user_Id/${userId}`,
    });
    expect(response.json<{ ProfilePic: string | null }[]>()[0]!.ProfilePic).toBe(
      `/api/uploads/users/${userId}/0123456789abcdef.png`,
    );
  });
});
