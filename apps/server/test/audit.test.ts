import { maxPageSize, type AuditEntry } from '@portal/contract';
import { desc, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../src/db/schema.ts';
import { anonymousRefusalsRecorded } from '../src/plugins/audit.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import {
  createDoctor,
  createStaff,
  doctorEditFields,
  formData,
  latestResetTokenTo,
  mailedResetToken,
  makeImage,
  uniqueName,
} from './helpers/factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * docs/quality/audit.md, Audit log: sign-ins (good and bad), refusals, case create/view/download/status
 * change and every administrative change, each with who, what, when (UTC) and from where;
 * no passwords, tokens or patient names in the logs or the audit log.
 */

const address = '203.0.113.7';
/** Everything the app logs, at trace level, as pino writes it. */
const logLines: string[] = [];
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({
    loginAttemptsPerAccount: 5,
    logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
  });
  admin = await t.adminToken();
});
afterAll(() => t.close());

/** A request from the test's address. */
const from = (token: string | null, options: InjectOptions) => t.as(token, { remoteAddress: address, ...options });

type Row = typeof auditLog.$inferSelect;

const allRows = () => t.app.db.select().from(auditLog).orderBy(desc(auditLog.auditId));

/** The newest row matching `match`; rows are written just after the answer, so it is waited for. */
async function entry(match: Partial<Row>): Promise<Row> {
  const isMatch = (row: Row) => Object.entries(match).every(([key, value]) => row[key as keyof Row] === value);
  return vi.waitFor(
    async () => {
      const found = (await allRows()).find(isMatch);
      if (!found) throw new Error(`no audit row like ${JSON.stringify(match)}`);
      return found;
    },
    { timeout: scaled(5000), interval: 20 },
  );
}

/** The row of one request: its action, actor, target and outcome, from the test's address, written just now. */
async function expectRecorded(match: Partial<Row> & Pick<Row, 'action' | 'outcome'>, since: Date): Promise<Row> {
  const row = await entry({ address, ...match });
  expect(row.at.getTime()).toBeGreaterThanOrEqual(since.getTime() - 1000);
  expect(row.at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  expect(row.requestId).not.toBe('');
  return row;
}

let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;

describe('audit log recording', () => {
  beforeAll(async () => {
    doctor = await createCaseDoctor(t);
  });

  it('records good, bad and throttled sign-ins and sign-outs', async () => {
    const since = new Date();
    const good = await from(null, { method: 'POST', url: '/api/auth/login', payload: doctor });
    expect(good.statusCode).toBe(200);
    await expectRecorded(
      {
        action: 'auth.login',
        outcome: 'success',
        actorUserId: doctor.userId,
        actorName: doctor.username,
        target: `user:${doctor.userId}`,
        statusCode: 200,
      },
      since,
    );

    const ghost = uniqueName('ghost');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const bad = await from(null, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ghost, password: 'wrong-password' },
      });
      statuses.push(bad.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    await expectRecorded(
      { action: 'auth.login', outcome: 'failure', actorUserId: null, actorName: ghost, statusCode: 401 },
      since,
    );
    await expectRecorded({ action: 'auth.login', outcome: 'failure', actorName: ghost, statusCode: 429 }, since);

    const logout = await from(good.json().token, { method: 'POST', url: '/api/auth/logout' });
    expect(logout.statusCode).toBe(200);
    await expectRecorded(
      { action: 'auth.logout', outcome: 'success', actorUserId: doctor.userId, actorName: doctor.username },
      since,
    );
  });

  it('records 401 and 403 answers on any /api route as refusals, with the path but not the query', async () => {
    const since = new Date();
    const anonymous = await from(null, { method: 'GET', url: '/api/case/get_cases_by_status/all/0?search=Someone' });
    expect(anonymous.statusCode).toBe(401);
    const row = await expectRecorded(
      { action: 'access.refused', outcome: 'refused', statusCode: 401, actorUserId: null },
      since,
    );
    expect(row.target).toBe('/api/case/get_cases_by_status/all/0');

    const rolesList = await from(doctor.token, { method: 'GET', url: '/api/role/get_roles_list' });
    expect(rolesList.statusCode).toBe(403);
    await expectRecorded(
      {
        action: 'access.refused',
        outcome: 'refused',
        statusCode: 403,
        actorUserId: doctor.userId,
        actorName: doctor.username,
        target: '/api/role/get_roles_list',
      },
      since,
    );

    // An audited route keeps its own action; the outcome says it was refused.
    const status = await from(doctor.token, { method: 'PUT', url: '/api/case/status/1', payload: { status: 'new' } });
    expect(status.statusCode).toBe(403);
    await expectRecorded(
      { action: 'case.status', outcome: 'refused', actorUserId: doctor.userId, target: 'case:1', statusCode: 403 },
      since,
    );
  });

  it('records the first 10 refusals without a session per address and window, and counts the rest into one row (issue 20)', async () => {
    const windowMs = 2000;
    const counted = await createTestApp({ audit: { refusalWindowMs: windowMs } });
    try {
      const flooder = '198.51.100.9';
      const other = '198.51.100.10';
      const refused = (remoteAddress: string) =>
        counted.app.inject({ method: 'GET', url: '/api/case/get_cases_by_status/all/0', remoteAddress });
      const answers = await Promise.all([
        ...Array.from({ length: 200 }, () => refused(flooder)),
        ...Array.from({ length: 3 }, () => refused(other)),
      ]);
      expect(new Set(answers.map((answer) => answer.statusCode))).toEqual(new Set([401]));
      const rowsFrom = (address: string) =>
        counted.app.db
          .select()
          .from(auditLog)
          .where(sql`${auditLog.address} = ${address}`);
      const summaryCount = (row: Row) =>
        Number(/^(\d+) more refused without a session/.exec(row.target ?? '')?.[1] ?? 0);
      // Every refusal is accounted for, one by one or in a window's count, once the window ends.
      const rows = await vi.waitFor(
        async () => {
          const found = await rowsFrom(flooder);
          const accounted = found.reduce((sum, row) => sum + Math.max(1, summaryCount(row)), 0);
          if (accounted < 200) throw new Error(`${accounted} of 200 refusals recorded`);
          return found;
        },
        { timeout: scaled(5 * windowMs), interval: 100 },
      );
      const summaries = rows.filter((row) => summaryCount(row) > 0);
      const single = rows.filter((row) => summaryCount(row) === 0);
      expect(single.length + summaries.reduce((sum, row) => sum + summaryCount(row), 0)).toBe(200);
      // At most 10 rows of their own a window (the burst may straddle the end of one).
      expect(summaries.length).toBeGreaterThan(0);
      expect(single.length).toBeLessThanOrEqual(anonymousRefusalsRecorded * (summaries.length + 1));
      for (const row of [...summaries, ...single]) {
        expect(row).toMatchObject({ action: 'access.refused', outcome: 'refused', statusCode: 401, actorUserId: null });
      }
      expect(summaries[0]!.target).toMatch(/within 2 s, the last \/api\/case\/get_cases_by_status\/all\/0$/);
      // Another address's few refusals keep a row each.
      await vi.waitFor(async () => expect(await rowsFrom(other)).toHaveLength(3), {
        timeout: scaled(5000),
        interval: 50,
      });
    } finally {
      await counted.close();
    }
  });

  it('records case create, view, download and status change with the case as target', async () => {
    const since = new Date();
    const form = caseForm(caseFields(doctor.clinicId), {
      front: { data: await makeImage(), name: 'front.png', type: 'image/png' },
    });
    const created = await from(doctor.token, { method: 'POST', url: '/api/case/add', payload: form });
    expect(created.statusCode).toBe(200);
    const caseId = created.json<{ CaseId: number }>().CaseId;
    await expectRecorded(
      { action: 'case.create', outcome: 'success', actorUserId: doctor.userId, target: `case:${caseId}` },
      since,
    );

    const view = await from(admin, { method: 'GET', url: `/api/case/get_cases_attachments_by_case_id/${caseId}` });
    expect(view.statusCode).toBe(200);
    await expectRecorded(
      { action: 'case.view', outcome: 'success', actorName: 'admin', target: `case:${caseId}` },
      since,
    );

    const [file] = view.json<{ FilePath: string }[]>();
    const attachmentId = file!.FilePath.split('/')[4];
    const download = await from(doctor.token, { method: 'GET', url: file!.FilePath });
    expect(download.statusCode).toBe(200);
    await expectRecorded(
      {
        action: 'case.download',
        outcome: 'success',
        actorUserId: doctor.userId,
        target: `case:${caseId}/attachment:${attachmentId}`,
      },
      since,
    );

    const status = await from(admin, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'inprogress' },
    });
    expect(status.statusCode).toBe(200);
    await expectRecorded(
      { action: 'case.status', outcome: 'success', actorName: 'admin', target: `case:${caseId}` },
      since,
    );

    // Another doctor's case: not found for them, recorded as a failed view.
    const other = await createCaseDoctor(t);
    const refused = await from(other.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
    });
    expect(refused.statusCode).toBe(404);
    await expectRecorded(
      { action: 'case.view', outcome: 'failure', actorUserId: other.userId, statusCode: 404 },
      since,
    );
  });

  it('records every administrative change: roles, permissions, users, doctors, activation, mail, resets', async () => {
    const since = new Date();
    const call = async (method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) => {
      const response = await from(admin, { method, url, payload });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
      return response.json();
    };
    const adminDid = (action: string, target: string | null) =>
      expectRecorded({ action, target, outcome: 'success', actorName: testAdmin.username, statusCode: 200 }, since);

    const { RoleId } = await call('POST', '/api/role/add', { roleName: uniqueName('role'), description: 'audit' });
    await adminDid('role.create', `role:${RoleId}`);
    await call('PUT', `/api/role/edit/${RoleId}`, { roleName: uniqueName('role'), description: 'edited' });
    await adminDid('role.update', `role:${RoleId}`);
    await call('POST', `/api/permission/add/${RoleId}/1`);
    await adminDid('permission.grant', `role:${RoleId}/page:1`);
    await call('DELETE', `/api/permission/delete/${RoleId}/1`);
    await adminDid('permission.revoke', `role:${RoleId}/page:1`);

    const username = uniqueName('web');
    const userForm = (password: string) =>
      formData({
        username,
        firstname: 'Wen',
        lastname: 'User',
        password,
        email: `${username}@lab.test`,
        mobileNo: '5550102',
        roleId: RoleId,
        userType: 'Web',
      });
    const { UserId } = await call('POST', '/api/user/add', userForm('first-pass-1'));
    await adminDid('user.create', `user:${UserId}`);
    await call('PUT', `/api/user/edit/${UserId}`, userForm(''));
    await adminDid('user.update', `user:${UserId}`);
    await call('DELETE', `/api/user/delete/${UserId}`);
    await adminDid('user.delete', `user:${UserId}`);
    const spare = await call('POST', '/api/role/add', { roleName: uniqueName('role'), description: 'unused' });
    await call('DELETE', `/api/role/delete/${spare.RoleId}`);
    await adminDid('role.delete', `role:${spare.RoleId}`);

    // Self-registration (through the factory, from inject's own address) has no actor.
    const registered = await createDoctor(t);
    const registration = await entry({ action: 'doctor.create', target: `doctor:${registered.doctorId}` });
    expect(registration).toMatchObject({
      outcome: 'success',
      actorUserId: null,
      actorName: null,
      address: '127.0.0.1',
    });
    // Activation is its own action.
    await call(
      'PUT',
      `/api/doctor/edit/${registered.doctorId}`,
      formData(await doctorEditFields(t, registered, { isActive: 'true' })),
    );
    await adminDid('doctor.activate', `doctor:${registered.doctorId}`);
    await call(
      'PUT',
      `/api/doctor/edit/${registered.doctorId}`,
      formData(await doctorEditFields(t, registered, { description: 'Changed' })),
    );
    await adminDid('doctor.update', `doctor:${registered.doctorId}`);

    await call('POST', `/api/doctor/request_password_reset/${registered.doctorId}`);
    await adminDid('doctor.password_reset_request', `doctor:${registered.doctorId}`);
    const token = await latestResetTokenTo(t, registered.email);
    const reset = await from(null, {
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token, newPassword: 'brand-new-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    await expectRecorded(
      { action: 'auth.password_reset', outcome: 'success', actorUserId: null, target: `user:${registered.userId}` },
      since,
    );

    await call('POST', '/api/email/send', { to: registered.email, templateName: 'activation' });
    await expectRecorded(
      { action: 'email.send', outcome: 'success', actorName: testAdmin.username, target: null },
      since,
    );

    await call('DELETE', `/api/doctor/delete/${registered.doctorId}`);
    await adminDid('doctor.delete', `doctor:${registered.doctorId}`);
  });

  it('does not record plain list reads', async () => {
    const before = (await allRows()).length;
    expect((await from(admin, { method: 'GET', url: '/api/role/get_roles_list' })).statusCode).toBe(200);
    expect((await from(admin, { method: 'GET', url: '/api/user/get_users_list' })).statusCode).toBe(200);
    // A recorded request after them: once it is there, the list reads would be too.
    await from(admin, { method: 'GET', url: '/api/audit' });
    await from(null, { method: 'GET', url: '/api/audit' });
    await entry({ action: 'access.refused', target: '/api/audit' });
    expect((await allRows()).length).toBe(before + 1);
  });

  it('answers normally when the audit row cannot be written, and logs why', async () => {
    await t.app.db.execute(sql`alter table audit_log rename to audit_log_away`);
    try {
      const response = await from(admin, { method: 'GET', url: '/api/role/get_roles_list' });
      expect(response.statusCode).toBe(200);
      const refused = await from(null, { method: 'GET', url: '/api/role/get_roles_list' });
      expect(refused.statusCode).toBe(401);
      await vi.waitFor(() => expect(logLines.join('')).toContain('audit entry not written'), { timeout: scaled(5000) });
    } finally {
      await t.app.db.execute(sql`alter table audit_log_away rename to audit_log`);
    }
  });
});

/**
 * Every audit row of the requests made so far is written. The refusal made here is waited for
 * first (rows are written after the answer has gone); then every write still running, which
 * on PostgreSQL's pool may finish in any order.
 */
async function settle(): Promise<void> {
  const [newest] = await allRows();
  await from(null, { method: 'GET', url: '/api/user/get_users_list' });
  await vi.waitFor(
    async () => {
      const rows = await allRows();
      const mine = rows.find(
        (row) => row.auditId > (newest?.auditId ?? 0) && row.target === '/api/user/get_users_list',
      );
      expect(mine).toBeDefined();
    },
    // An outcome wait: a loaded CI run's PostgreSQL pass has taken longer than 5 s.
    { timeout: scaled(30_000), interval: 20 },
  );
  await t.app.auditWritten();
}

const list = (token: string | null, query = '') => from(token, { method: 'GET', url: `/api/audit${query}` });

describe('GET /api/audit', () => {
  it('is for the administrator only', async () => {
    const everyPage = await createStaff(t, [1, 2, 3, 4, 5, 6]);
    expect((await list(null)).statusCode).toBe(401);
    expect((await list(everyPage.token)).statusCode).toBe(403);
    expect((await list(doctor.token)).statusCode).toBe(403);
    expect((await list(admin)).statusCode).toBe(200);
  });

  it('pages newest first, 10 by default, with X-Total-Count, in UTC', async () => {
    await settle();
    const total = (await allRows()).length;
    const first = await list(admin);
    expect(first.statusCode).toBe(200);
    expect(Number(first.headers['x-total-count'])).toBe(total);
    expect(first.json<AuditEntry[]>()).toHaveLength(10);

    const page = async (n: number) => (await list(admin, `?page=${n}&pageSize=4`)).json<AuditEntry[]>();
    const pages = [...(await page(1)), ...(await page(2))];
    // Newest by the time of the action; a row is written after its answer, so two requests
    // close together can be inserted (and numbered) in the other order.
    const byTime = await t.app.db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.auditId));
    const newest = byTime.slice(0, 8);
    expect(pages.map((row) => row.AuditId)).toEqual(newest.map((row) => row.auditId));
    for (const row of pages) expect(row.At).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const times = pages.map((row) => Date.parse(row.At));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('filters by action, user (any case), outcome and time', async () => {
    // Every page of a filter, at the largest page size (docs/decisions/lists-and-search.md § Paging).
    const all = async (query: string) => {
      const rows: AuditEntry[] = [];
      for (let page = 1; ; page++) {
        const response = await list(admin, `${query}&pageSize=${maxPageSize}&page=${page}`);
        expect(response.statusCode, response.body).toBe(200);
        const pageRows = response.json<AuditEntry[]>();
        rows.push(...pageRows);
        const total = Number(response.headers['x-total-count']);
        if (pageRows.length < maxPageSize) return { rows, total };
      }
    };
    const failedSignIns = await all('?action=auth.login&outcome=failure');
    expect(failedSignIns.total).toBeGreaterThanOrEqual(6);
    expect(failedSignIns.rows.every((row) => row.Action === 'auth.login' && row.Outcome === 'failure')).toBe(true);

    const byAdmin = await all(`?actor=${testAdmin.username.toUpperCase()}`);
    expect(byAdmin.total).toBeGreaterThan(5);
    expect(byAdmin.rows.every((row) => row.UserName === testAdmin.username)).toBe(true);

    const refused = await all('?outcome=refused');
    expect(refused.rows.every((row) => row.Outcome === 'refused' && [401, 403].includes(row.StatusCode))).toBe(true);

    // `from` is inclusive and `to` exclusive, so one instant splits the log in two.
    await settle();
    const everything = (await list(admin)).headers['x-total-count'];
    const middle = (await allRows())[Math.floor(Number(everything) / 2)]!.at.toISOString();
    const before = await all(`?to=${middle}`);
    const after = await all(`?from=${middle}`);
    expect(before.total + after.total).toBe(Number(everything));
    expect(before.total).toBeGreaterThan(0);
    expect(after.total).toBeGreaterThan(0);
    expect(after.rows.every((row) => row.At >= middle)).toBe(true);
    expect(before.rows.every((row) => row.At < middle)).toBe(true);
  });

  it('refuses bad filters with 400 and the field', async () => {
    for (const [query, field] of [
      ['?action=nope', 'action'],
      ['?outcome=maybe', 'outcome'],
      ['?from=yesterday', 'from'],
      ['?to=2026-13-45T00:00:00Z', 'to'],
      [`?pageSize=${maxPageSize + 1}`, 'pageSize'],
      ['?page=0', 'page'],
    ]) {
      const response = await list(admin, query);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json().fieldErrors ?? {}), query).toContain(field);
    }
  });
});

describe('what is logged', () => {
  it('holds no passwords, tokens or patient names, in the logs or the audit log', async () => {
    const secrets = new Set([testAdmin.password, 'Zebulon', 'Quixote']);
    const remember = (value: string) => (secrets.add(value), value);
    const signIn = async (username: string, password: string) => {
      const response = await from(null, { method: 'POST', url: '/api/auth/login', payload: { username, password } });
      return remember(response.json().token);
    };
    remember(admin);

    // A Web user created with a password signs in; a wrong password is tried.
    const username = uniqueName('clerk');
    const created = await from(admin, {
      method: 'POST',
      url: '/api/user/add',
      payload: formData({
        username,
        firstname: 'Cora',
        lastname: 'Clerk',
        password: remember('Clerk-Secret-Pass-1'),
        email: `${username}@lab.test`,
        mobileNo: '5550103',
        roleId: 19,
        userType: 'Web',
      }),
    });
    expect([200, 400]).toContain(created.statusCode);
    await signIn(username, 'Clerk-Secret-Pass-1');
    await from(null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: remember('Wrong-Guess-Pass-77') },
    });

    // A doctor's password is reset through the e-mailed link.
    const patientDoctor = await createCaseDoctor(t);
    remember(patientDoctor.password);
    remember(patientDoctor.token);
    const resetToken = remember(await mailedResetToken(t, patientDoctor));
    expect((await from(null, { method: 'GET', url: `/api/doctor/verify_token/${resetToken}` })).json().success).toBe(
      true,
    );
    const reset = await from(null, {
      method: 'POST',
      url: '/api/doctor/reset_password',
      payload: { token: resetToken, newPassword: remember('Fresh-Reset-Pass-42') },
    });
    expect(reset.statusCode).toBe(200);
    const doctorToken = await signIn(patientDoctor.username, 'Fresh-Reset-Pass-42');

    // A case for Zebulon Quixote, with his name in the file name too; searched, viewed, downloaded.
    const zebulonsCase = async () =>
      caseForm(caseFields(patientDoctor.clinicId, { firstname: 'Zebulon', lastname: 'Quixote' }), {
        front: { data: await makeImage(), name: 'Zebulon Quixote front.png', type: 'image/png' },
      });
    const submitted = await submitCase(t, doctorToken, await zebulonsCase());
    expect(submitted.statusCode).toBe(200);
    const caseId = submitted.json().CaseId;
    const search = await from(doctorToken, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/${patientDoctor.userId}?search=Quixote`,
    });
    expect(search.statusCode).toBe(200);
    await from(null, { method: 'GET', url: '/api/case/get_cases_by_status/all/0?search=Zebulon' });
    const attachments = await from(admin, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${caseId}`,
    });
    const [file] = attachments.json<{ FilePath: string }[]>();
    expect(file!.FilePath).toContain('Zebulon');
    expect((await from(doctorToken, { method: 'GET', url: file!.FilePath })).statusCode).toBe(200);
    // A failing insert is logged as an error with its query, but not the values it was run with.
    await t.app.db.execute(sql`alter table case_attachments rename to case_attachments_away`);
    try {
      expect((await submitCase(t, doctorToken, await zebulonsCase())).statusCode).toBe(500);
    } finally {
      await t.app.db.execute(sql`alter table case_attachments_away rename to case_attachments`);
    }
    await settle();

    const logs = logLines.join('');
    expect(logs).toContain('params: [hidden]');
    // The capture works: it holds these very requests, their paths made loggable.
    expect(logs).toContain('/api/doctor/verify_token/[token]');
    expect(logs).toContain(`/api/case/get_cases_by_status/all/${patientDoctor.userId}"`);
    const rows = await allRows();
    const audit = JSON.stringify(rows);
    const leaks = [...secrets].flatMap((secret) => [
      ...(logs.includes(secret) ? [`log: ${secret.slice(0, 12)}`] : []),
      ...(audit.includes(secret) ? [`audit: ${secret.slice(0, 12)}`] : []),
    ]);
    console.log(`[figure] audit: ${rows.length} actions recorded, ${leaks.length} secrets or patient names in logs`);
    expect(leaks).toEqual([]);
  });
});
