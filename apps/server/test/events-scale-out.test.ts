import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { binaryStl, caseFields, caseForm } from './helpers/case-factories.ts';
import { openEventStream, type EventStreamReader } from './helpers/event-stream.ts';
import { doctorFields, formData } from './helpers/factories.ts';
import { seededDatabase } from './helpers/portal-process-api.ts';
import { testAdmin } from './helpers/constants.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(120_000) });

/**
 * Live events across processes: two real portals on one PostgreSQL database; a status
 * change made through the first reaches a stream held by the second. Once with the
 * PostgreSQL LISTEN/NOTIFY bus (no REDIS_URL), once with Redis pub/sub when REDIS_URL is set.
 */
const freshName = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;

/** `promise`, or a failure naming `label` after `ms` (times the run's factor). */
function within<T>(label: string, promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${label}: no outcome in ${scaled(ms)} ms`)), scaled(ms)).unref(),
    ),
  ]);
}

async function login(portal: PortalProcess, username: string, password: string) {
  const response = await portal.api('POST', '/auth/login', { json: { username, password } });
  expect(response.status).toBe(200);
  return (await response.json()) as { token: string; userId: number };
}

const buses = [
  { name: 'PostgreSQL LISTEN/NOTIFY', redisUrl: '' },
  ...(process.env.REDIS_URL ? [{ name: 'Redis pub/sub', redisUrl: process.env.REDIS_URL }] : []),
];

describe.runIf(process.env.DATABASE_URL).each(buses)('live events across two processes ($name)', ({ redisUrl }) => {
  // The seeded template's administrator (the portal makes ADMIN_USERNAME only in a database without one).
  const admin = testAdmin;
  const dataDirs: string[] = [];
  const streams: EventStreamReader[] = [];
  let database: Awaited<ReturnType<typeof seededDatabase>> | undefined;
  let first: PortalProcess;
  let second: PortalProcess;

  beforeAll(async () => {
    // A copy of the seeded template on PostgreSQL (so no PGlite folder): no start seeds the
    // world's cities (scale-out.test.ts starts on an empty one).
    database = await seededDatabase('', 'portal_events');
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      LOGIN_ATTEMPTS_PER_ADDRESS: '10000',
      LOGIN_ATTEMPTS_PER_ACCOUNT: '10000',
      LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: '10000',
      LOG_LEVEL: 'error',
    };
    const startOne = async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-events-'));
      dataDirs.push(dataDir);
      return startPortal({ ...shared, DATA_DIR: dataDir });
    };
    [first, second] = await Promise.all([startOne(), startOne()]);
  }, scaled(240_000));

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all([first?.stop(), second?.stop()]);
    // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
    await stopStartedProcesses();
    await database?.drop();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('a status change made through one process reaches a stream held by the other, and only its doctor', async () => {
    const { token: adminToken } = await login(first, admin.username, admin.password);
    const [city] = (await (await first.api('GET', '/city/get_cities_list/1')).json()) as { CityId: number }[];
    const doctors = [];
    for (let i = 0; i < 2; i++) {
      const fields = doctorFields({
        isActive: 'true',
        clinicList: JSON.stringify([
          { clinicId: 0, clinicName: 'Smile', countryId: 1, cityId: city!.CityId, contactNo: '1', address: '1 Main' },
        ]),
      });
      const added = await first.api('POST', '/doctor/add', { token: adminToken, form: formData(fields) });
      expect(added.status, await added.clone().text()).toBe(200);
      doctors.push(await login(first, String(fields.username), String(fields.password)));
    }
    const [owner, other] = doctors as [{ token: string; userId: number }, { token: string; userId: number }];
    const clinics = await first.api('GET', `/clinic/get_clinics_list_by_user_id/${owner.userId}`, {
      token: owner.token,
    });
    const [{ ClinicId }] = (await clinics.json()) as [{ ClinicId: number }];
    const form = caseForm(caseFields(ClinicId), { maxillaryScan: { data: binaryStl(20), name: 'upper.stl' } });
    const submitted = await first.api('POST', '/case/add', { token: owner.token, form });
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    const { CaseId } = (await submitted.json()) as { CaseId: number };

    const open = async (token: string) => {
      const stream = await openEventStream(`${second.baseUrl}/api/events`, { authorization: `Bearer ${token}` });
      streams.push(stream);
      expect(stream.status).toBe(200);
      return stream;
    };
    const ownerStream = await open(owner.token);
    const otherStream = await open(other.token);
    const staffStream = await open(adminToken);
    // Both streams are registered on the second process before the change is made.
    await Promise.all(
      [ownerStream, otherStream, staffStream].map((s) => expect.poll(() => s.comments).toContain('connected')),
    );

    const changed = await first.api('PUT', `/case/status/${CaseId}`, {
      token: adminToken,
      json: { status: 'inprogress' },
    });
    expect(changed.status).toBe(200);
    const isChange = (event: { type: string; data: unknown }) =>
      event.type === 'case.status' && (event.data as { caseId: number }).caseId === CaseId;
    const received = await ownerStream.waitFor(isChange, 20_000);
    expect(received.data).toMatchObject({ caseId: CaseId, status: 'inprogress' });
    await staffStream.waitFor(isChange, 20_000);
    expect(otherStream.events).toEqual([]);
  });

  it("taking the Dashboard page from a role through one process ends its staff's stream on the other at once", async () => {
    const { token: adminToken } = await login(first, admin.username, admin.password);
    const role = await first.api('POST', '/role/add', {
      token: adminToken,
      json: { roleName: freshName('role'), description: 'live' },
    });
    const { RoleId } = (await role.json()) as { RoleId: number };
    expect((await first.api('POST', `/permission/add/${RoleId}/1`, { token: adminToken })).status).toBe(200);
    const username = freshName('staff');
    const password = 'staff-passphrase';
    const fields = { username, firstname: 'Sam', lastname: 'Staff', password, email: `${username}@lab.test` };
    const added = await first.api('POST', '/user/add', {
      token: adminToken,
      form: formData({ ...fields, mobileNo: '5550101', roleId: RoleId, userType: 'Web' }),
    });
    expect(added.status, await added.clone().text()).toBe(200);
    const { token } = await login(first, username, password);
    const stream = await openEventStream(`${second.baseUrl}/api/events`, { authorization: `Bearer ${token}` });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.comments).toContain('connected');

    expect((await first.api('DELETE', `/permission/delete/${RoleId}/1`, { token: adminToken })).status).toBe(200);
    // Well before the second process's periodic check (every 30 s) could have found it.
    const outcome = await Promise.race([
      stream.ended.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000).unref()),
    ]);
    expect(outcome).toBe('ended');
  });

  // Each step bounded, so that a step that never ends says which it was (one CI run under load
  // timed out here with no word of where); the portal's own shutdown bound is 30 s.
  it('SIGTERM ends the streams a process holds and the process exits', { timeout: scaled(150_000) }, async () => {
    const { token } = await within('sign-in', login(second, admin.username, admin.password), 30_000);
    const stream = await within(
      'opening the stream',
      openEventStream(`${second.baseUrl}/api/events`, { authorization: `Bearer ${token}` }),
      30_000,
    );
    streams.push(stream);
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.comments, { timeout: scaled(10_000) }).toContain('connected');
    await within('SIGTERM until the process exits', second.stop(), 45_000);
    await within('the stream ending', stream.ended, 10_000);
    expect(second.child.exitCode).toBe(0);
  });
});
