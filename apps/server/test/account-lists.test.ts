import { defaultPageSize, DOCTOR_ROLE_ID, maxPageSize } from '@portal/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctors, users } from '../src/db/schema.ts';
import { uniqueName } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/*
 * The doctor and user lists answer one page (issue 20, finding 7): 10 rows by default, at most
 * 30, the count of all matches in X-Total-Count, oldest account first, searched and sorted on
 * the server.
 */

let t: TestApp;
let admin: string;
// More than one maximum page of each, all named with one marker a search finds.
const seeded = maxPageSize + 3;
const marker = uniqueName('pagey');
const seededIds: Record<'doctors' | 'users', number[]> = { doctors: [], users: [] };
let inactiveDoctors = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  // Rows are written straight to the tables: the lists read them, and adding 66 accounts
  // through the API would hash 66 passwords.
  for (let index = 0; index < seeded; index++) {
    const account = (userType: 'Web' | 'Doctor', roleId: number) => ({
      userName: `${marker}${userType}${index}`,
      firstName: `${marker}first`,
      lastName: 'Seeded',
      email: `${marker}${userType}${index}@lab.test`,
      userType,
      roleId,
      passwordHash: 'not-a-hash',
      isActive: userType === 'Web' || index % 4 !== 0,
    });
    const [web] = await t.app.db.insert(users).values(account('Web', -1)).returning({ userId: users.userId });
    seededIds.users.push(web!.userId);
    const [doctorUser] = await t.app.db
      .insert(users)
      .values(account('Doctor', DOCTOR_ROLE_ID))
      .returning({ userId: users.userId });
    await t.app.db.insert(doctors).values({ userId: doctorUser!.userId, gender: 'Female' });
    seededIds.doctors.push(doctorUser!.userId);
    // The last of each is deleted below.
    if (index % 4 === 0 && index < seeded - 1) inactiveDoctors++;
  }
  // A deleted account of each kind, which no list shows or counts.
  await t.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.userId, seededIds.users.pop()!));
  await t.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.userId, seededIds.doctors.pop()!));
});
afterAll(() => t.close());

const lists = [
  { name: 'doctors', url: '/api/doctor/get_doctors_list', userType: 'Doctor' },
  { name: 'users', url: '/api/user/get_users_list', userType: 'Web' },
] as const;

describe.each(lists)('GET $url is always paged', ({ name, url, userType }) => {
  const get = (query: Record<string, string> = {}) => t.as(admin, { method: 'GET', url, query });
  const total = (response: { headers: Record<string, unknown> }) => Number(response.headers['x-total-count']);

  it(`answers ${defaultPageSize} rows without a query, every live account counted in X-Total-Count`, async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ UserId: number; userType: string }[]>();
    expect(rows).toHaveLength(defaultPageSize);
    const [counted] = await t.app.db
      .select({ total: count() })
      .from(users)
      .where(and(eq(users.userType, userType), isNull(users.deletedAt)));
    expect(total(response)).toBe(counted!.total);
    expect(total(response)).toBeGreaterThan(maxPageSize);
    const ids = rows.map((row) => row.UserId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('reads every match once across pages, in a stable order, up to the maximum page size', async () => {
    const read: number[] = [];
    for (let page = 1; page <= 2; page++) {
      const response = await get({ search: marker, page: String(page), pageSize: String(maxPageSize) });
      expect(response.statusCode).toBe(200);
      expect(total(response)).toBe(seeded - 1);
      read.push(...response.json<{ UserId: number }[]>().map((row) => row.UserId));
    }
    expect(read).toEqual(seededIds[name]);
    const again = await get({ search: marker, page: '2', pageSize: '5' });
    expect(again.json<{ UserId: number }[]>().map((row) => row.UserId)).toEqual(seededIds[name].slice(5, 10));
  });

  it('searches the username, names and e-mail in any case, a % literally', async () => {
    const username = `${marker}${userType}7`;
    const byName = await get({ search: username.toUpperCase() });
    expect(byName.json<{ UserName: string }[]>().map((row) => row.UserName)).toEqual([username]);
    expect(total(byName)).toBe(1);
    const byEmail = await get({ search: `${userType}7@LAB.test` });
    expect(byEmail.json<{ UserName: string }[]>().map((row) => row.UserName)).toContain(username);
    expect(total(await get({ search: `${marker.toUpperCase()}FIRST` }))).toBe(seeded - 1);
    const literal = await get({ search: '%' });
    expect(literal.statusCode).toBe(200);
    expect(total(literal)).toBe(0);
  });

  it('sorts by a column either way, equal values by user id, and refuses another sort (400)', async () => {
    const descending = await get({ search: marker, sort: '-UserName', pageSize: '5' });
    const names = descending.json<{ UserName: string }[]>().map((row) => row.UserName);
    expect(names).toEqual([...names].sort().reverse());
    const byLastName = await get({ search: marker, sort: 'LastName', pageSize: String(maxPageSize) });
    expect(byLastName.json<{ UserId: number }[]>().map((row) => row.UserId)).toEqual(seededIds[name].slice(0, 30));
    expect((await get({ sort: 'passwordHash' })).statusCode).toBe(400);
  });

  it(`refuses a page size past ${maxPageSize} and a page that is not one (400)`, async () => {
    const tooLarge = await get({ pageSize: String(maxPageSize + 1) });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.body).toContain(`Page size is at most ${maxPageSize}`);
    expect((await get({ page: '0' })).statusCode).toBe(400);
    expect((await get({ pageSize: 'all' })).statusCode).toBe(400);
  });
});

it('lists only the doctors waiting for activation with active=false', async () => {
  const response = await t.as(admin, {
    method: 'GET',
    url: '/api/doctor/get_doctors_list',
    query: { search: marker, active: 'false', pageSize: String(maxPageSize) },
  });
  expect(response.statusCode).toBe(200);
  const rows = response.json<{ IsActive: boolean }[]>();
  expect(rows.length).toBe(inactiveDoctors);
  expect(rows.every((row) => !row.IsActive)).toBe(true);
  expect(Number(response.headers['x-total-count'])).toBe(inactiveDoctors);
  const refused = await t.as(admin, { method: 'GET', url: '/api/doctor/get_doctors_list', query: { active: 'no' } });
  expect(refused.statusCode).toBe(400);
});

it('finds one doctor by userId (the case form names the doctor of an order or a draft)', async () => {
  const userId = seededIds.doctors[20]!;
  const get = (query: Record<string, string>) =>
    t.as(admin, { method: 'GET', url: '/api/doctor/get_doctors_list', query });
  const found = await get({ userId: String(userId) });
  expect(found.json<{ UserId: number }[]>().map((row) => row.UserId)).toEqual([userId]);
  expect(found.headers['x-total-count']).toBe('1');
  expect((await get({ userId: 'x' })).statusCode).toBe(400);
  expect((await get({ userId: '0' })).statusCode).toBe(400);
});
