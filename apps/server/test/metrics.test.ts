import { endpoints } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.ts';
import { binaryStl, caseFields, caseForm, createCaseDoctor, encodeForm, submitCase } from './helpers/case-factories.ts';
import { openEventStream } from './helpers/event-stream.ts';
import { makeImage } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';
import { waitUntil } from './helpers/wait-until.ts';

/** docs/quality/operations.md, Metrics: GET /metrics after known traffic, and who may read it. */

const token = 'metrics-token-'.padEnd(40, 'x');

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, sample lines only: `name{label="value",...} number`. */
function parseScrape(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name!, value!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the sample with exactly these labels (0 when there is none yet). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const found = samples.find(
    (sample) => sample.name === name && JSON.stringify(Object.entries(sample.labels).sort()) === wanted,
  );
  return found?.value ?? 0;
}

let t: TestApp;
const scrape = async (app = t) => {
  const response = await app.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { text: response.body, samples: parseScrape(response.body) };
};
const count = async (query: ReturnType<typeof sql>) =>
  ((await t.app.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;

beforeAll(async () => {
  // Three wrong passwords for one account from one address, then 429.
  t = await createTestApp({
    metrics: { token, port: undefined, host: '127.0.0.1' },
    loginAttemptsPerAccountAndAddress: 3,
  });
});
afterAll(() => t.close());

describe('GET /metrics', () => {
  it('counts known traffic: requests by operation and status class, sign-in failures, throttles, upload bytes, 404s', async () => {
    const doctor = await createCaseDoctor(t);
    const before = (await scrape()).samples;
    const duration = (operation: string, statusClass: string) => (samples: Sample[]) =>
      valueOf(samples, 'portal_http_request_duration_seconds_count', { operation, status_class: statusClass });
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'victim', password } });

    for (let attempt = 0; attempt < 3; attempt++) expect((await login('wrong password')).statusCode).toBe(401);
    expect((await login('wrong password')).statusCode).toBe(429);
    const admin = await t.login(testAdmin.username, testAdmin.password);
    for (let call = 0; call < 2; call++) {
      const list = await t.as(admin, { method: 'GET', url: '/api/case/get_cases_by_status/all/0?page=1&pageSize=10' });
      expect(list.statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/no/such/route' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/no/such/page' })).statusCode).toBe(404);
    const form = await encodeForm(
      caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: binaryStl(40), name: 'upper.stl' } }),
    );
    const upload = await t.as(doctor.token, {
      method: 'POST',
      url: '/api/case/add',
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    expect(upload.statusCode).toBe(200);

    const after = (await scrape()).samples;
    const increase = (read: (samples: Sample[]) => number) => read(after) - read(before);
    expect(increase(duration('login', '4xx'))).toBe(4);
    expect(increase(duration('login', '2xx'))).toBe(1);
    expect(increase(duration('caseList', '2xx'))).toBe(2);
    expect(increase(duration('caseCreate', '2xx'))).toBe(1);
    expect(increase(duration('notFound', '4xx'))).toBe(2);
    expect(increase((samples) => valueOf(samples, 'portal_sign_in_failures_total', { step: 'login' }))).toBe(3);
    expect(
      increase((samples) =>
        valueOf(samples, 'portal_throttled_requests_total', { operation: 'login', limit: 'account_address' }),
      ),
    ).toBe(1);
    expect(increase((samples) => valueOf(samples, 'portal_upload_bytes_total', { operation: 'caseCreate' }))).toBe(
      form.body.length,
    );
    // Answered quickly: every one of them in the histogram's last bucket, most in a small one.
    expect(
      valueOf(after, 'portal_http_request_duration_seconds_bucket', {
        operation: 'caseList',
        status_class: '2xx',
        le: '+Inf',
      }),
    ).toBe(2);
  });

  it('reads the outbox, the job queue and the database pool when scraped', async () => {
    // Two mails due in an hour; one of them then given up on, as the outbox does after its last attempt.
    const mail = { to: 'lab@portal.test', template: 'caseSubmitted', variables: {} } as const;
    await t.app.outbox.enqueue(t.app.db, mail, { sendAfterSeconds: 3600 });
    const given = await t.app.outbox.enqueue(t.app.db, mail, { sendAfterSeconds: 3600 });
    await t.app.db.execute(sql`update mail_outbox set next_attempt_at = 'infinity' where mail_id = ${given}`);
    const mails = (where: ReturnType<typeof sql>) =>
      count(sql`select count(*)::int as n from mail_outbox where sent_at is null and ${where}`);
    // The outbox may send an earlier test's mail meanwhile: the scrape lies between two counts.
    const waitingBefore = await mails(sql`next_attempt_at <> 'infinity'`);
    const { samples } = await scrape();
    const waiting = await mails(sql`next_attempt_at <> 'infinity'`);
    expect(waiting).toBeGreaterThan(0);
    expect(valueOf(samples, 'portal_mail_outbox', { state: 'waiting' })).toBeGreaterThanOrEqual(waiting);
    expect(valueOf(samples, 'portal_mail_outbox', { state: 'waiting' })).toBeLessThanOrEqual(waitingBefore);
    expect(valueOf(samples, 'portal_mail_outbox', { state: 'failed' })).toBe(1);
    // The case above queued its scan's viewing copy (the test app does not run jobs by itself).
    const queued = await count(sql`select count(*)::int as n from jobs where state = 'queued'`);
    expect(queued).toBeGreaterThan(0);
    expect(valueOf(samples, 'portal_jobs', { state: 'queued' })).toBe(queued);
    expect(valueOf(samples, 'portal_jobs', { state: 'running' })).toBe(0);
    const pool = process.env.DATABASE_URL ? 'main' : 'pglite';
    expect(samples.some((sample) => sample.name === 'portal_db_pool_connections' && sample.labels.pool === pool)).toBe(
      true,
    );
    expect(valueOf(samples, 'portal_db_pool_waiting', { pool })).toBe(0);
    // The process's metrics, on the app's own registry.
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'process_open_fds')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds', { quantile: '0.99' })).toBeGreaterThanOrEqual(0);
  });

  it('counts a job given up after its last attempt, by kind', async () => {
    const failures = async () => valueOf((await scrape()).samples, 'portal_jobs_failed_total', { kind: 'probe' });
    t.app.jobs.handle('probe', async () => {
      throw new Error('probe fails');
    });
    // Its fifth attempt: the queue's last.
    await t.app.db.insert(jobs).values({ kind: 'probe', payload: {}, attempts: 4 });
    const before = await failures();
    await t.app.jobs.runDue();
    expect(await failures()).toBe(before + 1);
  });

  it("counts the patients' files in storage: originals of cases, messages and plans, and their viewing copies once made", async () => {
    const stored = (samples: Sample[], kind: string) => ({
      files: valueOf(samples, 'portal_stored_files', { kind }),
      bytes: valueOf(samples, 'portal_stored_bytes', { kind }),
    });
    // Copies queued by earlier tests are made first, so that only this test's change below.
    await t.app.jobs.runDue();
    const before = (await scrape()).samples;
    const doctor = await createCaseDoctor(t);
    const admin = await t.login(testAdmin.username, testAdmin.password);
    const scan = binaryStl(60);
    const photo = { data: await makeImage('png', 40), name: 'smile.png', type: 'image/png' };
    const created = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: scan, name: 'upper.stl' }, frontSmiling: photo }),
    );
    expect(created.statusCode).toBe(200);
    const caseId = created.json<{ CaseId: number }>().CaseId;
    const messageStl = binaryStl(30);
    const message = await t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: caseForm({ text: 'The lower scan' }, { files: { data: messageStl, name: 'lower.stl' } }),
    });
    expect(message.statusCode).toBe(200);
    const stages = stageFiles(1, 1);
    expect((await uploadPlan(t, admin, caseId, planForm(planSummaryOf(1, 1), stages))).statusCode).toBe(200);

    const originalBytes =
      scan.length + photo.data.length + messageStl.length + stages.reduce((sum, file) => sum + file.data.length, 0);
    const uploaded = (await scrape()).samples;
    expect(stored(uploaded, 'original').files - stored(before, 'original').files).toBe(2 + 1 + stages.length);
    expect(stored(uploaded, 'original').bytes - stored(before, 'original').bytes).toBe(originalBytes);
    // Queued, not made yet: nothing stored for them.
    expect(stored(uploaded, 'viewing_copy')).toEqual(stored(before, 'viewing_copy'));

    await t.app.jobs.runDue();
    // The case's scan, the message's STL and each plan arch have a copy, counted with the bytes its row records.
    const copies = (await t.app.db
      .execute(sql`select count(*)::int as files, sum(view_bytes)::int as bytes from mesh_views
      where created_at >= (select created_at from cases where case_id = ${caseId}) and view_bytes is not null`)) as unknown as {
      rows: { files: number; bytes: number }[];
    };
    const made = (await scrape()).samples;
    expect(copies.rows[0]!.files).toBe(4);
    expect(stored(made, 'viewing_copy').files - stored(before, 'viewing_copy').files).toBe(4);
    expect(stored(made, 'viewing_copy').bytes - stored(before, 'viewing_copy').bytes).toBe(copies.rows[0]!.bytes);
    expect(stored(made, 'original')).toEqual(stored(uploaded, 'original'));
  });

  it('counts open event streams apart from requests in flight', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const doctor = await createCaseDoctor(t);
    const stream = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${doctor.token}` });
    try {
      expect(stream.status).toBe(200);
      const { samples } = await scrape();
      expect(valueOf(samples, 'portal_event_streams_open')).toBe(1);
      // The scrape itself.
      expect(valueOf(samples, 'portal_http_requests_in_flight')).toBe(1);
    } finally {
      stream.close();
    }
    await waitUntil(
      async () => valueOf((await scrape()).samples, 'portal_event_streams_open') === 0,
      'the closed stream to leave the gauge',
      { timeoutMs: 5000, everyMs: 20 },
    );
  });

  it('carries no user, case id or patient data in any label, and names operations only as the endpoint table does', async () => {
    const doctor = await createCaseDoctor(t);
    const patient = { firstname: 'Zebulon', lastname: 'Quixotic' };
    const created = await t.as(doctor.token, {
      method: 'POST',
      url: '/api/case/add',
      payload: caseForm(caseFields(doctor.clinicId, patient)),
    });
    expect(created.statusCode).toBe(200);
    const { CaseId: caseId, TrackingNo: trackingNo } = created.json<{ CaseId: number; TrackingNo: string }>();
    await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}` });
    await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId + 1000}` });
    await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/${doctor.userId}?page=1&pageSize=10&search=Zebulon`,
    });
    await t.app.inject({ method: 'GET', url: `/api/Zebulon/${caseId}/${doctor.username}` });
    await t.app.inject({ method: 'POST', url: `/${trackingNo}`, payload: { username: doctor.username } });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: doctor.username, password: 'not the password' },
    });

    const { samples } = await scrape();
    // Every label's value but a histogram bucket's bound (le="2").
    const labelValues = samples.flatMap((sample) =>
      Object.entries(sample.labels).flatMap(([name, value]) => (name === 'le' ? [] : [value])),
    );
    const personal = [doctor.username, patient.firstname, patient.lastname, trackingNo, '/'];
    expect(labelValues.filter((value) => personal.some((text) => value.includes(text)))).toEqual([]);
    expect(labelValues.filter((value) => value === String(caseId) || value === String(doctor.userId))).toEqual([]);
    const named = new Set([...Object.keys(endpoints), 'notFound', 'metrics', 'webApp', 'apiDocs']);
    const operations = new Set(samples.flatMap((sample) => sample.labels.operation ?? []));
    expect([...operations].filter((operation) => !named.has(operation) && !/^tus[A-Z]+$/.test(operation))).toEqual([]);
    expect(operations).toContain('caseGet');
  });

  it('is refused without the token, with a wrong one or another scheme: 401 and no detail', async () => {
    const answers = await Promise.all(
      [undefined, 'Bearer ', `Bearer ${token.slice(0, -1)}y`, `Bearer ${token}x`, `Basic ${token}`, token].map(
        (authorization) =>
          t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ message: 'Unauthorized' });
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
  });
});

describe('metrics off, or on a port of their own', () => {
  it('answers 404 when neither METRICS_TOKEN nor METRICS_PORT is set, whatever the token', async () => {
    const off = await createTestApp();
    try {
      for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
        const answer = await off.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(answer.statusCode).toBe(404);
        expect(answer.body).not.toContain('portal_');
      }
    } finally {
      await off.close();
    }
  });

  it('serves METRICS_PORT on 127.0.0.1 only, not on the main port, and closes it with the app', async () => {
    const own = await createTestApp({ metrics: { token: undefined, port: 0, host: '127.0.0.1' } });
    let closed = false;
    try {
      const address = (await own.app.listenForMetrics())!;
      expect(address.address).toBe('127.0.0.1');
      const url = `http://127.0.0.1:${address.port}`;
      const served = await fetch(`${url}/metrics`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(await served.text()).toContain('portal_http_request_duration_seconds');
      expect((await fetch(`${url}/`)).status).toBe(404);
      expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
      for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
        expect((await own.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode).toBe(404);
      }
      await own.close();
      closed = true;
      await expect(fetch(`${url}/metrics`)).rejects.toThrow();
    } finally {
      if (!closed) await own.close();
    }
  });

  it('asks METRICS_TOKEN on the metrics port too when both are set', async () => {
    const both = await createTestApp({ metrics: { token, port: 0, host: '127.0.0.1' } });
    try {
      const { port } = (await both.app.listenForMetrics())!;
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      const wrong = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toBe('Unauthorized\n');
      const right = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(right.status).toBe(200);
      // The main port still does not serve it.
      const main = await both.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(main.statusCode).toBe(404);
    } finally {
      await both.close();
    }
  });
});
