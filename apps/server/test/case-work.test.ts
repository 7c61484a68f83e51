import { endpoints, type CaseNote, type CaseRow, type CaseTimelineEntry, type Endpoint } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { auditLog, caseNotes, cases } from '../src/db/schema.ts';
import {
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  everyCaseFile,
  submitCase,
} from './helpers/case-factories.ts';
import { openEventStream, type EventStreamReader } from './helpers/event-stream.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * docs/decisions/cases.md § Assignment and internal notes, § A case's files as one ZIP (issue 24):
 * the lab assigns a case to a technician (on the timeline, live, filtered in the lists), keeps
 * internal notes no doctor ever reads, and anyone who sees a case downloads its files as one ZIP.
 */

let t: TestApp;
let base: string;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let otherDoctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let technician: Awaited<ReturnType<typeof createStaff>>;
let colleague: Awaited<ReturnType<typeof createStaff>>;
let pageless: Awaited<ReturnType<typeof createStaff>>;
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  t = await createTestApp({ events: { heartbeatMs: 500, sessionCheckMs: 1000 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
  otherDoctor = await createCaseDoctor(t);
  technician = await createStaff(t, [1]);
  colleague = await createStaff(t, [1]);
  pageless = await createStaff(t, [4]);
}, scaled(60_000));
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t?.close();
});

async function newCase(files: Parameters<typeof caseForm>[1] = {}) {
  const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId), files));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ CaseId: number; TrackingNo: string }>();
}

const assign = (token: string, caseId: number, userId: unknown) =>
  t.as(token, { method: 'PUT', url: `/api/case/${caseId}/assignee`, payload: { userId } });

const timelineOf = async (token: string, caseId: number) =>
  (await t.as(token, { method: 'GET', url: `/api/case/${caseId}/timeline` })).json<CaseTimelineEntry[]>();

const assignmentsOf = async (caseId: number) =>
  (await timelineOf(admin, caseId)).filter((entry) => entry.kind === 'assignment');

describe('PUT /api/case/{caseId}/assignee', () => {
  it('lists active staff with the Dashboard page as assignees, and no one else', async () => {
    const response = await t.as(technician.token, { method: 'GET', url: '/api/case/assignees' });
    expect(response.statusCode, response.body).toBe(200);
    const listed = response.json<{ userId: number; name: string; userName: string }[]>();
    expect(listed).toContainEqual({ userId: technician.userId, name: 'Sam Staff', userName: technician.username });
    const ids = listed.map((user) => user.userId);
    expect(ids).toEqual(expect.arrayContaining([technician.userId, colleague.userId]));
    expect(ids).not.toContain(pageless.userId);
    expect(ids).not.toContain(doctor.userId);
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/case/assignees' })).statusCode).toBe(403);
  });

  it("assigns and unassigns, on the case's row, its timeline and live to its doctor; a repeat changes nothing", async () => {
    const { CaseId } = await newCase();
    const own = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${doctor.token}` });
    const other = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${otherDoctor.token}` });
    streams.push(own, other);

    const assigned = await assign(colleague.token, CaseId, technician.userId);
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toEqual({
      message: 'Case assigned to Sam Staff',
      assignee: { userId: technician.userId, name: 'Sam Staff' },
    });
    const heard = await own.waitFor((event) => event.type === 'case.assignee');
    expect(heard.data).toMatchObject({ caseId: CaseId, assigneeUserId: technician.userId });
    const detail = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${CaseId}` })).json<CaseRow>();
    expect(detail).toMatchObject({ AssigneeUserId: technician.userId, AssigneeName: 'Sam Staff' });

    expect((await assign(colleague.token, CaseId, technician.userId)).statusCode).toBe(200);
    expect((await assign(colleague.token, CaseId, null)).json()).toEqual({
      message: 'Case unassigned',
      assignee: null,
    });
    expect(await assignmentsOf(CaseId)).toEqual([
      expect.objectContaining({ by: colleague.userId, assigneeUserId: technician.userId, assigneeName: 'Sam Staff' }),
      expect.objectContaining({ by: colleague.userId, assigneeUserId: null, assigneeName: null }),
    ]);
    await own.waitFor(
      (event) => event.type === 'case.assignee' && (event.data as { assigneeUserId: unknown }).assigneeUserId === null,
    );
    expect(other.events.filter((event) => event.type === 'case.assignee')).toEqual([]);
    const audited = await t.app.db
      .select({ target: auditLog.target })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'case.assign'), eq(auditLog.target, `case:${CaseId}`)));
    expect(audited).toHaveLength(3);
  });

  it('refuses a doctor, staff without the Dashboard page, an unknown user and a bad body, changing nothing', async () => {
    const { CaseId } = await newCase();
    const refusals = [
      [await assign(technician.token, CaseId, doctor.userId), 400],
      [await assign(technician.token, CaseId, pageless.userId), 400],
      [await assign(technician.token, CaseId, 999_999), 400],
      [await assign(technician.token, CaseId, 'me'), 400],
      [await assign(technician.token, CaseId, 1.5), 400],
      [await assign(doctor.token, CaseId, technician.userId), 403],
      [await assign(pageless.token, CaseId, technician.userId), 403],
      [await assign(technician.token, 999_999, technician.userId), 404],
    ] as const;
    expect(refusals.map(([response]) => response.statusCode)).toEqual(refusals.map(([, status]) => status));
    expect(refusals[0][0].json().message).toBe('The assignee must be an active staff user with the Dashboard page');
    expect(refusals[3][0].json().message).toBe('The assignee must be a user id, or null to unassign');
    expect(await assignmentsOf(CaseId)).toEqual([]);
  });

  it("filters the lists to the caller's cases as technician, or the unassigned, searched or not", async () => {
    const mine = await newCase();
    const theirs = await newCase();
    const nobody = await newCase();
    await assign(admin, mine.CaseId, technician.userId);
    await assign(admin, theirs.CaseId, colleague.userId);
    const list = async (token: string, query: string, userId = 0) => {
      const response = await t.as(token, {
        method: 'GET',
        url: `/api/case/get_cases_by_status/all/${userId}?pageSize=30&${query}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const ids = response.json<CaseRow[]>().map((row) => row.CaseId);
      expect(Number(response.headers['x-total-count'])).toBe(ids.length);
      return ids;
    };
    for (const search of ['', `&search=${mine.TrackingNo.slice(0, 6)}`]) {
      const ownIds = await list(technician.token, `assignee=mine${search}`);
      expect(ownIds).toContain(mine.CaseId);
      expect(ownIds).not.toContain(theirs.CaseId);
      expect(ownIds).not.toContain(nobody.CaseId);
      const unassigned = await list(technician.token, `assignee=unassigned${search}`);
      expect(unassigned).not.toContain(mine.CaseId);
      expect(unassigned).not.toContain(theirs.CaseId);
      if (search === '') expect(unassigned).toContain(nobody.CaseId);
    }
    // A doctor is no one's technician; their own list's unassigned filter still reads only their cases.
    expect(await list(doctor.token, 'assignee=mine', doctor.userId)).toEqual([]);
    expect(await list(doctor.token, 'assignee=unassigned', doctor.userId)).toContain(nobody.CaseId);
    const bad = await t.as(technician.token, { method: 'GET', url: '/api/case/get_cases_by_status/all/0?assignee=x' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Assignee must be mine or unassigned']);
  });
});

describe('/api/case/{caseId}/notes', () => {
  const notesUrl = (caseId: number) => `/api/case/${caseId}/notes`;

  it('are written and read by staff, oldest first, with their author', async () => {
    const { CaseId } = await newCase();
    for (const text of ['Scan checked', '  Upper arch re-cut  ']) {
      const added = await t.as(technician.token, { method: 'POST', url: notesUrl(CaseId), payload: { text } });
      expect(added.statusCode, added.body).toBe(200);
    }
    const notes = (await t.as(colleague.token, { method: 'GET', url: notesUrl(CaseId) })).json<CaseNote[]>();
    expect(notes.map((note) => [note.text, note.authorId, note.authorName])).toEqual([
      ['Scan checked', technician.userId, 'Sam Staff'],
      ['Upper arch re-cut', technician.userId, 'Sam Staff'],
    ]);
  });

  it("are 404 to every doctor, the case's own included, and appear in no answer a doctor gets", async () => {
    const { CaseId } = await newCase({ maxillaryScan: { data: binaryStl(8), name: 'upper.stl' } });
    const secret = `Internal ${Math.random().toString(36).slice(2)}`;
    expect(
      (await t.as(technician.token, { method: 'POST', url: notesUrl(CaseId), payload: { text: secret } })).statusCode,
    ).toBe(200);
    for (const token of [doctor.token, otherDoctor.token]) {
      for (const method of ['GET', 'POST'] as const) {
        const refused = await t.as(token, { method, url: notesUrl(CaseId), payload: { text: 'x' } });
        expect([refused.statusCode, refused.json().message]).toEqual([404, 'Case not found']);
      }
    }
    expect((await t.as(pageless.token, { method: 'GET', url: notesUrl(CaseId) })).statusCode).toBe(403);
    // Every GET of the endpoint table the doctor can call on their case: none carries the note.
    const caseGets = (Object.values(endpoints) as Endpoint[]).filter(
      (row) => row.method === 'GET' && row.path.includes(':caseId') && !row.path.includes(':planId'),
    );
    expect(caseGets.length).toBeGreaterThan(5);
    for (const row of caseGets) {
      const answer = await t.as(doctor.token, { method: 'GET', url: row.path.replace(':caseId', String(CaseId)) });
      expect(answer.rawPayload.includes(secret), `${row.path} answers the note`).toBe(false);
    }
    for (const path of ['/api/case/get_cases_by_status/all/0?pageSize=30', `/api/case/get_all_stats/0`]) {
      const answer = await t.as(doctor.token, { method: 'GET', url: path });
      expect(answer.rawPayload.includes(secret)).toBe(false);
    }
  });

  it('refuse empty and too long text, and a case past 500 notes, storing nothing', async () => {
    const { CaseId } = await newCase();
    const empty = await t.as(technician.token, { method: 'POST', url: notesUrl(CaseId), payload: { text: '   ' } });
    expect([empty.statusCode, empty.json().message]).toEqual([400, 'Note text is required']);
    const long = await t.as(technician.token, {
      method: 'POST',
      url: notesUrl(CaseId),
      payload: { text: 'x'.repeat(5001) },
    });
    expect([long.statusCode, long.json().message]).toEqual([400, 'A note is at most 5000 characters']);
    await t.app.db
      .insert(caseNotes)
      .values(Array.from({ length: 500 }, () => ({ caseId: CaseId, authorId: technician.userId, text: 'Filler' })));
    const full = await t.as(technician.token, { method: 'POST', url: notesUrl(CaseId), payload: { text: 'One more' } });
    expect([full.statusCode, full.json().message]).toEqual([409, 'A case has at most 500 notes']);
    const stored = await t.app.db.select({ text: caseNotes.text }).from(caseNotes).where(eq(caseNotes.caseId, CaseId));
    expect(stored.every((note) => note.text === 'Filler')).toBe(true);
    expect(stored).toHaveLength(500);
  });
});

/** The entries of a ZIP and the SHA-256 of each. */
function unzip(data: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const found = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const hash = createHash('sha256');
          stream.on('data', (chunk: Buffer) => hash.update(chunk));
          stream.on('end', () => {
            found.set(entry.fileName, hash.digest('hex'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A binary STL of random facets: deflate cannot shrink it, so its ZIP is as large as it is. */
function incompressibleStl(triangles: number): Buffer {
  const data = randomBytes(84 + 50 * triangles);
  data.writeUInt32LE(triangles, 80);
  return data;
}

describe('GET /api/case/{caseId}/files.zip', () => {
  it('streams at most two ZIPs at once per user (429 past them), and a closed download frees its place', async () => {
    const { CaseId } = await newCase({ maxillaryScan: { data: incompressibleStl(320_000), name: 'upper.stl' } });
    const url = `${base}/api/case/${CaseId}/files.zip`;
    const open: (() => void)[] = [];
    // A download whose body is not read: 16 MB fill the sockets' buffers and the ZIP waits.
    // Through node:http, whose destroy() closes the connection at once: a fetch given up
    // kept its socket open, and app.close() waited for the ZIP in it (70 s at the file's end).
    const start = (token: string) =>
      new Promise<{ status: number; body: string; close: () => void }>((resolve, reject) => {
        const request = http.get(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (response) => {
          const close = () => request.destroy();
          open.push(close);
          if (response.statusCode === 200) return resolve({ status: 200, body: '', close });
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body, close }));
        });
        request.on('error', reject);
      });
    try {
      const [first, second] = [await start(doctor.token), await start(doctor.token)];
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await start(doctor.token);
      expect([third.status, JSON.parse(third.body).message]).toEqual([
        429,
        'At most 2 ZIP downloads at once: wait for one to finish',
      ]);
      // Another user has places of their own.
      expect((await start(technician.token)).status).toBe(200);
      // The first download given up: its place is free once the server sees it closed.
      first.close();
      let again = await start(doctor.token);
      for (let attempt = 0; again.status === 429 && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await start(doctor.token);
      }
      expect(again.status).toBe(200);
    } finally {
      for (const close of open) close();
    }
  });

  it('holds every file of the case byte for byte, in folders by group, named by tracking number', async () => {
    const files = await everyCaseFile();
    const { CaseId, TrackingNo } = await newCase(files);
    const message = caseForm(
      { text: 'Two more' },
      {
        files: [
          { data: binaryStl(6), name: 'bite.stl' },
          { data: binaryStl(7), name: 'bite.stl' },
        ],
      },
    );
    expect(
      (await t.as(doctor.token, { method: 'POST', url: `/api/case/${CaseId}/messages`, payload: message })).statusCode,
    ).toBe(200);
    expect((await uploadPlan(t, admin, CaseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)))).statusCode).toBe(200);

    const response = await t.as(doctor.token, { method: 'GET', url: `/api/case/${CaseId}/files.zip` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`filename="${TrackingNo}.zip"`);
    const entries = await unzip(response.rawPayload);

    const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    const expected = new Map<string, string>([
      [`${TrackingNo}/STL-1/upper arch.stl`, sha((files.maxillaryScan as { data: Buffer }).data)],
      [`${TrackingNo}/STL-2/lower.STL`, sha((files.mandibularScan as { data: Buffer }).data)],
      [`${TrackingNo}/X-Ray OPG/photo-48.png`, sha((files.opv as { data: Buffer }).data)],
      [`${TrackingNo}/X-Ray CEPH/photo-49.jpg`, sha((files.leteralCeloform as { data: Buffer }).data)],
      [`${TrackingNo}/Front Smiling/photo-40.png`, sha((files.frontSmiling as { data: Buffer }).data)],
      [`${TrackingNo}/Other File/Röntgen extra.jpeg`, sha((files.otherFiles as { data: Buffer }[])[1]!.data)],
      [`${TrackingNo}/Messages/bite.stl`, sha(binaryStl(6))],
      [`${TrackingNo}/Messages/bite (2).stl`, sha(binaryStl(7))],
      [`${TrackingNo}/Plan v1/upper_00.stl`, sha(stageFiles(1, 0)[0]!.data)],
    ]);
    for (const [name, digest] of expected) expect(entries.get(name), name).toBe(digest);
    const stored = await t.as(admin, { method: 'GET', url: `/api/case/get_cases_attachments_by_case_id/${CaseId}` });
    // Every attachment, the two message files and the plan's two stages.
    expect(entries.size).toBe(stored.json<unknown[]>().length + 2 + 2);

    expect((await t.as(technician.token, { method: 'GET', url: `/api/case/${CaseId}/files.zip` })).statusCode).toBe(
      200,
    );
    const other = await t.as(otherDoctor.token, { method: 'GET', url: `/api/case/${CaseId}/files.zip` });
    expect(other.statusCode).toBe(404);
  });
});

describe('turnaround: days in status, due dates, overdue', () => {
  const list = async (token: string, query: string) => {
    const response = await t.as(token, {
      method: 'GET',
      url: `/api/case/get_cases_by_status/all/0?pageSize=30&${query}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(Number(response.headers['x-total-count'])).toBe(response.json<unknown[]>().length);
    return response.json<CaseRow[]>();
  };
  const setBack = (caseId: number, days: number) =>
    t.app.db
      .update(cases)
      .set({ statusChangedAt: new Date(Date.now() - days * 86_400_000) })
      .where(eq(cases.caseId, caseId));

  it("answers the lab's targets to staff, and each case's time in its status", async () => {
    const targets = await t.as(technician.token, { method: 'GET', url: '/api/case/turnaround' });
    expect(targets.json()).toEqual({ targets: { new: 2, inprogress: 10, dispatched: 7 } });
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/case/turnaround' })).statusCode).toBe(403);
    const { CaseId } = await newCase();
    const submitted = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${CaseId}` })).json<CaseRow>();
    expect(Date.now() - Date.parse(submitted.StatusChangedAt)).toBeLessThan(60_000);
    await setBack(CaseId, 5);
    const moved = await t.as(technician.token, {
      method: 'PUT',
      url: `/api/case/status/${CaseId}`,
      payload: { status: 'inprogress' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // A status change starts the clock again.
    const inProgress = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${CaseId}` })).json<CaseRow>();
    expect(Date.now() - Date.parse(inProgress.StatusChangedAt)).toBeLessThan(60_000);
  });

  it('lists the cases past their status target, searched or not, and only those', async () => {
    const late = await newCase();
    const fresh = await newCase();
    const lateInProgress = await newCase();
    await setBack(late.CaseId, 3); // new: 2 days
    await setBack(fresh.CaseId, 1);
    await t.as(admin, {
      method: 'PUT',
      url: `/api/case/status/${lateInProgress.CaseId}`,
      payload: { status: 'inprogress' },
    });
    await setBack(lateInProgress.CaseId, 5); // in progress: 10 days, not yet
    const overdueIds = async (query: string) =>
      (await list(technician.token, `overdue=true${query}`)).map((row) => row.CaseId);
    const all = await overdueIds('');
    expect(all).toContain(late.CaseId);
    expect(all).not.toContain(fresh.CaseId);
    expect(all).not.toContain(lateInProgress.CaseId);
    // A search keeps to the filter.
    expect(await overdueIds(`&search=${late.TrackingNo}`)).toEqual([late.CaseId]);
    expect(await overdueIds(`&search=${fresh.TrackingNo}`)).toEqual([]);
    await setBack(lateInProgress.CaseId, 11);
    const overdue = (await list(technician.token, 'overdue=true&assignee=unassigned')).map((row) => row.CaseId);
    expect(overdue).toEqual(expect.arrayContaining([late.CaseId, lateInProgress.CaseId]));
    const bad = await t.as(technician.token, { method: 'GET', url: '/api/case/get_cases_by_status/all/0?overdue=yes' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Overdue must be true']);
  });
});

describe('the submission date range filter', () => {
  it('keeps to cases submitted from the start of `from` to the end of `to` (UTC), searched or not', async () => {
    const { CaseId, TrackingNo } = await newCase();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const ids = async (query: string) => {
      const response = await t.as(technician.token, {
        method: 'GET',
        url: `/api/case/get_cases_by_status/all/0?pageSize=30&${query}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      const rows = response.json<CaseRow[]>().map((row) => row.CaseId);
      expect(Number(response.headers['x-total-count'])).toBe(rows.length);
      return rows;
    };
    for (const search of ['', `&search=${TrackingNo}`]) {
      expect(await ids(`from=${day(0)}&to=${day(0)}${search}`)).toContain(CaseId);
      expect(await ids(`from=${day(-3)}${search}`)).toContain(CaseId);
      expect(await ids(`to=${day(-1)}${search}`)).not.toContain(CaseId);
      expect(await ids(`from=${day(1)}${search}`)).not.toContain(CaseId);
    }
    const bad = await t.as(technician.token, {
      method: 'GET',
      url: '/api/case/get_cases_by_status/all/0?from=27.11.2026',
    });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'From must be a date, YYYY-MM-DD']);
  });
});

describe('GET /api/case/doctor-options', () => {
  it('names doctors for the Doctor filter, by a part of the name accents aside, or by id; staff only', async () => {
    const dvorak = await createCaseDoctor(t, { firstname: 'Antonín', lastname: 'Dvořák' });
    const options = async (query: string, token = technician.token) => {
      const response = await t.as(token, { method: 'GET', url: `/api/case/doctor-options?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ userId: number; name: string }[]>();
    };
    expect(await options('search=dvorak')).toEqual([{ userId: dvorak.userId, name: 'Antonín Dvořák' }]);
    expect(await options(`userId=${dvorak.userId}`)).toEqual([{ userId: dvorak.userId, name: 'Antonín Dvořák' }]);
    // Staff are no doctors; at most 20 answered.
    expect(await options(`userId=${technician.userId}`)).toEqual([]);
    expect((await options('search=')).length).toBeLessThanOrEqual(20);
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/case/doctor-options' })).statusCode).toBe(403);
  });
});
