import { defaultPageSize, maxPageSize } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, makeImage } from './helpers/factories.ts';
import { eq, inArray, sql } from 'drizzle-orm';
import { keptPlans } from '../src/db/client.ts';
import { cases, patientNames } from '../src/db/schema.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

type Doctor = Awaited<ReturnType<typeof createCaseDoctor>>;
interface Row {
  CaseId: number;
  TrackingNo: string;
  FirstName: string;
  doctorname: string;
  DoctorUserId: number;
  CreatedAt: string;
}

let t: TestApp;
let curie: Doctor;
let turing: Doctor;
let admin: string;
const caseIds = new Map<Doctor, number[]>();

/** Submits a case for each patient name, with a front photo; answers their ids. */
async function addPatients(doctor: Doctor, names: Parameters<typeof caseFields>[1][]) {
  const ids: number[] = [];
  for (const name of names) {
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, name), { front: { data: await makeImage(), name: 'front.png' } }),
    );
    if (response.statusCode !== 200) throw new Error(response.body);
    ids.push(response.json<{ CaseId: number }>().CaseId);
  }
  return ids;
}

async function addCases(doctor: Doctor, count: number) {
  const names = Array.from({ length: count }, (_, i) => ({ firstname: `P${String(i).padStart(2, '0')}` }));
  caseIds.set(doctor, [...(caseIds.get(doctor) ?? []), ...(await addPatients(doctor, names))]);
}

beforeAll(async () => {
  t = await createTestApp();
  curie = await createCaseDoctor(t, { firstname: 'Marie', lastname: 'Curie' });
  turing = await createCaseDoctor(t, { firstname: 'Alan', lastname: 'Turing' });
  admin = await t.adminToken();
  await addCases(curie, 12);
  await addCases(turing, 3);
});
afterAll(() => t.close());

const list = (token: string, path: string) => t.as(token, { method: 'GET', url: `/api/case/${path}` });

describe('GET /case/get_cases_by_status/{status}/{userId}', () => {
  it('answers staff a page of every case with no query (userId 0), or of one doctor by userId, never all rows (issue 20)', async () => {
    const all = await list(admin, 'get_cases_by_status/all/0');
    expect(all.statusCode).toBe(200);
    expect(all.json<Row[]>()).toHaveLength(defaultPageSize);
    expect(all.headers['x-total-count']).toBe('15');
    const newest = all.json<Row[]>().map((row) => row.CaseId);
    expect(newest).toEqual([...caseIds.get(curie)!, ...caseIds.get(turing)!].sort((a, b) => b - a).slice(0, 10));
    const one = await list(admin, `get_cases_by_status/all/${turing.userId}`);
    expect(one.json<Row[]>().map((row) => row.doctorname)).toEqual(['Alan Turing', 'Alan Turing', 'Alan Turing']);
    const staff = await createStaff(t, [1]);
    const byStatus = await list(staff.token, 'get_cases_by_status/new/0');
    expect(byStatus.json<Row[]>()).toHaveLength(defaultPageSize);
    expect(byStatus.headers['x-total-count']).toBe('15');
    // The largest page is the spec's largest table page; past it is refused, not cut.
    expect((await list(admin, `get_cases_by_status/all/0?pageSize=${maxPageSize}`)).json<Row[]>()).toHaveLength(15);
    const tooLarge = await list(admin, `get_cases_by_status/all/0?pageSize=${maxPageSize + 1}`);
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toMatchObject({ fieldErrors: { pageSize: `Page size is at most ${maxPageSize}` } });
  });

  it('pages newest first with the full count in X-Total-Count', async () => {
    const first = await list(admin, 'get_cases_by_status/all/0?page=1&pageSize=5');
    expect(first.json<Row[]>()).toHaveLength(5);
    expect(first.headers['x-total-count']).toBe('15');
    const third = await list(admin, 'get_cases_by_status/all/0?page=3&pageSize=5');
    const ids = [...first.json<Row[]>(), ...third.json<Row[]>()].map((row) => row.CaseId);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await list(admin, 'get_cases_by_status/all/0?page=4&pageSize=5')).json()).toEqual([]);
    const defaults = await list(admin, 'get_cases_by_status/all/0?page=2');
    expect(defaults.json<Row[]>()).toHaveLength(5);
    // The table's page sizes on its first pages have their page written into the statement;
    // the rest bind LIMIT and OFFSET (case-rows.ts literalPage): the same rows either way.
    const everyId = (await list(admin, 'get_cases_by_status/all/0?pageSize=20')).json<Row[]>().map((row) => row.CaseId);
    const seventh = await list(admin, 'get_cases_by_status/all/0?page=7&pageSize=2');
    expect(seventh.json<Row[]>().map((row) => row.CaseId)).toEqual(everyId.slice(12, 14));
    expect(seventh.headers['x-total-count']).toBe('15');
    expect(third.json<Row[]>().map((row) => row.CaseId)).toEqual(everyId.slice(10, 15));
  });

  it('searches tracking number or doctor name, ignoring case, and takes % literally', async () => {
    const byName = await list(admin, 'get_cases_by_status/all/0?search=cUrIe&pageSize=30');
    expect(byName.headers['x-total-count']).toBe('12');
    expect(new Set(byName.json<Row[]>().map((row) => row.doctorname))).toEqual(new Set(['Marie Curie']));
    const fullName = await list(admin, 'get_cases_by_status/all/0?search=alan%20tur');
    expect(fullName.headers['x-total-count']).toBe('3');
    const target = byName.json<Row[]>()[4]!;
    const byTracking = await list(
      admin,
      `get_cases_by_status/all/0?search=${target.TrackingNo.slice(3).toLowerCase()}`,
    );
    expect(byTracking.json<Row[]>().map((row) => row.CaseId)).toEqual([target.CaseId]);
    expect((await list(admin, 'get_cases_by_status/all/0?search=%25')).headers['x-total-count']).toBe('0');
    // Each page of a search carries the count of all its matches, a page past the last one too.
    const secondPage = await list(admin, 'get_cases_by_status/all/0?search=cUrIe&page=2&pageSize=5');
    expect(secondPage.headers['x-total-count']).toBe('12');
    expect(secondPage.json<Row[]>().map((row) => row.CaseId)).toEqual(
      byName
        .json<Row[]>()
        .slice(5, 10)
        .map((row) => row.CaseId),
    );
    const sorted = await list(admin, 'get_cases_by_status/all/0?search=curie&sort=-FirstName&page=2&pageSize=4');
    expect(sorted.headers['x-total-count']).toBe('12');
    const byFirstName = byName
      .json<Row[]>()
      .sort((a, b) => (a.FirstName < b.FirstName ? 1 : a.FirstName > b.FirstName ? -1 : b.CaseId - a.CaseId));
    expect(sorted.json<Row[]>().map((row) => row.CaseId)).toEqual(byFirstName.slice(4, 8).map((row) => row.CaseId));
    const pastTheEnd = await list(admin, 'get_cases_by_status/all/0?search=curie&page=4&pageSize=5');
    expect(pastTheEnd.json()).toEqual([]);
    expect(pastTheEnd.headers['x-total-count']).toBe('12');
    const ownPastTheEnd = await list(turing.token, 'get_cases_by_status/new/0?search=turing&page=9');
    expect(ownPastTheEnd.json()).toEqual([]);
    expect(ownPastTheEnd.headers['x-total-count']).toBe('3');
  });

  it("searches the patient's first and last name too, for staff and for a doctor's own cases", async () => {
    const staff = await createStaff(t, [1]);
    const byFirst = await list(staff.token, 'get_cases_by_status/all/0?search=p01');
    expect(byFirst.headers['x-total-count']).toBe('2');
    expect(byFirst.json<Row[]>().map((row) => row.FirstName)).toEqual(['P01', 'P01']);
    const byFull = await list(admin, 'get_cases_by_status/all/0?search=P07%20patIENT');
    expect(byFull.json<Row[]>().map((row) => [row.FirstName, row.doctorname])).toEqual([['P07', 'Marie Curie']]);
    const own = await list(turing.token, 'get_cases_by_status/all/0?search=p01%20pat');
    expect(own.json<Row[]>().map((row) => [row.FirstName, row.doctorname])).toEqual([['P01', 'Alan Turing']]);
    expect((await list(turing.token, 'get_cases_by_status/all/0?search=p07')).json()).toEqual([]);
  });

  it('sorts by any listed column, ascending or descending, and refuses others', async () => {
    const ascending = await list(admin, 'get_cases_by_status/all/0?sort=TrackingNo&pageSize=30');
    const numbers = ascending.json<Row[]>().map((row) => row.TrackingNo);
    expect(numbers).toEqual([...numbers].sort());
    const byName = await list(admin, 'get_cases_by_status/all/0?sort=-FirstName&pageSize=3');
    expect(byName.json<Row[]>().map((row) => row.FirstName)).toEqual(['P11', 'P10', 'P09']);
    const byDoctor = await list(admin, 'get_cases_by_status/all/0?sort=doctorname&pageSize=1');
    expect(byDoctor.json<Row[]>()[0]!.doctorname).toBe('Alan Turing');
    const bad = await list(admin, 'get_cases_by_status/all/0?sort=password_hash');
    expect(bad.statusCode).toBe(400);
    expect((await list(admin, 'get_cases_by_status/all/0?pageSize=1000')).statusCode).toBe(400);
    expect((await list(admin, 'get_cases_by_status/closed/0')).statusCode).toBe(400);
  });
});

describe('GET /case/get_all_stats/{userId}', () => {
  it('counts all cases for staff and own cases for a doctor', async () => {
    const all = await list(admin, 'get_all_stats/0');
    expect(all.json()).toEqual([
      { newcases: 15, total: 15, inprogress: 0, dispatched: 0, delivered: 0, awaitingApproval: 0, changesRequested: 0 },
    ]);
    const one = await list(admin, `get_all_stats/${curie.userId}`);
    expect(one.json()[0].total).toBe(12);
  });
});

describe('doctor isolation', () => {
  it('shows a doctor only their own cases and stats, whatever userId they pass', async () => {
    for (const path of [
      `get_cases_by_status/all/${curie.userId}`,
      'get_cases_by_status/all/0',
      'get_cases_by_status/new/0?page=1&pageSize=30',
    ]) {
      const rows = (await list(turing.token, path)).json<Row[]>();
      expect(rows.map((row) => row.CaseId).sort()).toEqual([...caseIds.get(turing)!].sort());
    }
    const stats = await list(turing.token, `get_all_stats/${curie.userId}`);
    expect(stats.json()[0].total).toBe(3);
    const search = await list(turing.token, 'get_cases_by_status/all/0?search=curie');
    expect(search.json()).toEqual([]);
  });

  it("answers 404 for another doctor's case, attachments, history and files", async () => {
    const curieCase = caseIds.get(curie)![0]!;
    const attachments = await list(curie.token, `get_cases_attachments_by_case_id/${curieCase}`);
    expect(attachments.statusCode).toBe(200);
    const [file] = attachments.json<{ FilePath: string }[]>();
    expect((await list(turing.token, `get_cases_attachments_by_case_id/${curieCase}`)).statusCode).toBe(404);
    expect((await list(turing.token, `get_case_history/${curieCase}`)).statusCode).toBe(404);
    expect((await t.as(turing.token, { method: 'GET', url: file!.FilePath })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: file!.FilePath, cookies: { token: turing.token } })).statusCode,
    ).toBe(404);
    expect((await t.as(turing.token, { method: 'HEAD', url: file!.FilePath })).statusCode).toBe(404);
    expect(
      (
        await t.as(turing.token, {
          method: 'PUT',
          url: `/api/case/status/${curieCase}`,
          payload: { status: 'delivered' },
        })
      ).statusCode,
    ).toBe(403);
    // The owner and Dashboard staff do get them.
    expect((await t.as(curie.token, { method: 'GET', url: file!.FilePath })).statusCode).toBe(200);
    const staff = await createStaff(t, [1]);
    expect((await t.as(staff.token, { method: 'GET', url: file!.FilePath })).statusCode).toBe(200);
    expect((await list(staff.token, `get_case_history/${curieCase}`)).statusCode).toBe(200);
  });

  it('refuses staff without the Dashboard page and anonymous callers on every read', async () => {
    const curieCase = caseIds.get(curie)![0]!;
    const [file] = (await list(curie.token, `get_cases_attachments_by_case_id/${curieCase}`)).json<
      { FilePath: string }[]
    >();
    const paths = [
      '/api/case/get_all_stats/0',
      '/api/case/get_cases_by_status/all/0',
      `/api/case/get_cases_attachments_by_case_id/${curieCase}`,
      `/api/case/get_case_history/${curieCase}`,
      file!.FilePath,
    ];
    const addCaseOnly = await createStaff(t, [6]);
    for (const path of paths) {
      expect((await t.as(addCaseOnly.token, { method: 'GET', url: path })).statusCode, path).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode, path).toBe(401);
    }
  });

  it('answers 404 for a case that does not exist', async () => {
    expect((await list(admin, 'get_cases_attachments_by_case_id/999999')).statusCode).toBe(404);
    expect((await t.as(admin, { method: 'GET', url: '/api/case/files/999999/x.png' })).statusCode).toBe(404);
  });
});

describe('GET /case/get_cases_by_status/{status}/{userId}?search= over patient names', () => {
  it('finds a part of a first name or surname, a name with a space, and keeps to the status tile', async () => {
    const lovelace = await createCaseDoctor(t, { firstname: 'Ada', lastname: 'Lovelace' });
    const names = [
      { firstname: 'Zofia', lastname: 'Kowalczyk' },
      { firstname: 'Anna', lastname: 'van Dijk' },
      { firstname: 'Jan', lastname: 'Kowalski' },
    ];
    await addPatients(lovelace, names);
    const surnames = (response: Awaited<ReturnType<typeof list>>) =>
      response.json<{ LastName: string }[]>().map((row) => row.LastName);
    const kowal = await list(admin, 'get_cases_by_status/all/0?search=KOWAL&sort=LastName');
    expect(kowal.headers['x-total-count']).toBe('2');
    expect(surnames(kowal)).toEqual(['Kowalczyk', 'Kowalski']);
    expect(surnames(await list(admin, 'get_cases_by_status/all/0?search=ofi'))).toEqual(['Kowalczyk']);
    // Across first name and surname, and inside a surname with a space.
    expect(surnames(await list(admin, 'get_cases_by_status/all/0?search=na%20van%20d'))).toEqual(['van Dijk']);
    expect(surnames(await list(admin, 'get_cases_by_status/all/0?search=N%20DIJ'))).toEqual(['van Dijk']);
    expect(surnames(await list(lovelace.token, 'get_cases_by_status/new/0?search=ski'))).toEqual(['Kowalski']);
    const delivered = await list(admin, 'get_cases_by_status/delivered/0?search=kowal');
    expect(delivered.json()).toEqual([]);
    expect(delivered.headers['x-total-count']).toBe('0');
    expect((await list(admin, 'get_cases_by_status/new/0?search=kowal')).headers['x-total-count']).toBe('2');
  });

  it('ignores accents and case, in names typed either way, for staff and for a doctor (issue 24)', async () => {
    const dvorak = await createCaseDoctor(t, { firstname: 'Antonín', lastname: 'Dvořák' });
    await addPatients(dvorak, [
      { firstname: 'Zoë', lastname: 'Brzęczyszczykiewicz' },
      { firstname: 'Zoe', lastname: 'Muller' },
      { firstname: 'Łucja', lastname: 'Müller' },
    ]);
    const surnames = async (token: string, path: string) =>
      (await list(token, path))
        .json<{ LastName: string }[]>()
        .map((row) => row.LastName)
        .sort();
    const all = 'get_cases_by_status/all/0?search=';
    expect(await surnames(admin, `${all}brzeczy`)).toEqual(['Brzęczyszczykiewicz']);
    expect(await surnames(admin, `${all}BRZĘCZY`)).toEqual(['Brzęczyszczykiewicz']);
    expect(await surnames(admin, `${all}${encodeURIComponent('zoe')}`)).toEqual(['Brzęczyszczykiewicz', 'Muller']);
    expect(await surnames(admin, `${all}${encodeURIComponent('müller')}`)).toEqual(['Muller', 'Müller']);
    expect(await surnames(admin, `${all}lucja%20mull`)).toEqual(['Müller']);
    // The doctor's name, accents aside: all three of Dvořák's cases.
    expect(await surnames(admin, `${all}dvorak`)).toHaveLength(3);
    expect(await surnames(dvorak.token, `get_cases_by_status/all/${dvorak.userId}?search=brzeczy`)).toEqual([
      'Brzęczyszczykiewicz',
    ]);
    expect(await surnames(dvorak.token, `get_cases_by_status/all/${dvorak.userId}?search=LUCJA`)).toEqual(['Müller']);
  });

  it('lists a case that several things match once: its doctor, first name, surname and tracking number', async () => {
    const doctor = await createCaseDoctor(t, { firstname: 'Nils', lastname: 'Quorra' });
    const patients = [
      { firstname: 'Quorra', lastname: 'Quorra' },
      { firstname: 'Quorra', lastname: 'Berg' },
      { firstname: 'Ida', lastname: 'Quorra' },
      { firstname: 'Ida', lastname: 'Berg' },
    ];
    await addPatients(doctor, patients);
    // Another doctor's patient named Quorra Quorra (both name reads find her), and another.
    const other = await createCaseDoctor(t, { firstname: 'Otto', lastname: 'Lind' });
    await addPatients(other, [
      { firstname: 'Quorra', lastname: 'Quorra' },
      { firstname: 'Ole', lastname: 'Lind' },
    ]);
    const found = await list(admin, 'get_cases_by_status/all/0?search=quorra&pageSize=20');
    const rows = found.json<Row[]>();
    expect(found.headers['x-total-count']).toBe('5');
    expect(new Set(rows.map((row) => row.CaseId)).size).toBe(5);
    expect(rows.filter((row) => row.doctorname === 'Nils Quorra')).toHaveLength(4);
    const paged = await list(admin, 'get_cases_by_status/all/0?search=quorra&page=2&pageSize=3');
    expect(paged.json<Row[]>().map((row) => row.CaseId)).toEqual(rows.slice(3).map((row) => row.CaseId));
    expect(paged.headers['x-total-count']).toBe('5');
    // Many matching names, some with what an array literal quotes (the search binds the
    // matched names as one array: search-cases.ts oneOf), and a page past the last match,
    // counted on its own: the same answer.
    const odd = ['Quorra, "Jr."', 'Quorra {x}', 'Quorra\\', "Quorra O'Neil", 'NULL quorra'];
    const many = [...odd, ...Array.from({ length: 40 }, (_, index) => `Quorrax${index}`)];
    await t.app.db.insert(patientNames).values(many.map((name) => ({ name })));
    const manyNames = await list(admin, 'get_cases_by_status/all/0?search=quorra&pageSize=20');
    expect(manyNames.headers['x-total-count']).toBe('5');
    expect(manyNames.json<Row[]>().map((row) => row.CaseId)).toEqual(rows.map((row) => row.CaseId));
    const [oddCase] = await addPatients(other, [{ firstname: odd[0]!, lastname: odd[1]! }]);
    const withOdd = await list(admin, 'get_cases_by_status/all/0?search=quorra&pageSize=20');
    expect(withOdd.headers['x-total-count']).toBe('6');
    expect(withOdd.json<Row[]>().map((row) => row.CaseId)).toEqual([oddCase, ...rows.map((row) => row.CaseId)]);
    const pastTheEnd = await list(admin, 'get_cases_by_status/all/0?search=quorra&page=3&pageSize=3');
    expect(pastTheEnd.json()).toEqual([]);
    expect(pastTheEnd.headers['x-total-count']).toBe('6');
    const [byTracking] = rows.filter((row) => row.doctorname === 'Nils Quorra');
    const tracked = await list(admin, `get_cases_by_status/all/0?search=${byTracking!.TrackingNo}`);
    expect(tracked.json<Row[]>().map((row) => row.CaseId)).toEqual([byTracking!.CaseId]);
    expect(tracked.headers['x-total-count']).toBe('1');
  });

  it('pages a date-sorted search over all doctors as the sorted list of every match, however deep', async () => {
    const doctor = await createCaseDoctor(t, { firstname: 'Wren', lastname: 'Hallow' });
    const other = await createCaseDoctor(t, { firstname: 'Otto', lastname: 'Brink' });
    // Found by the doctor, by first name, by surname, by both names, and not at all.
    await addPatients(doctor, [
      { firstname: 'Ida', lastname: 'Berg' },
      { firstname: 'Hallowen', lastname: 'Stone' },
    ]);
    const [surnameCase] = await addPatients(other, [
      { firstname: 'Ida', lastname: 'Halloway' },
      { firstname: 'Hallowen', lastname: 'Halloway' },
      { firstname: 'Ole', lastname: 'Lind' },
    ]);
    // 220 more Halloways (a page 300 deep reads past topMatchesDepth), with created_at in no
    // order of case_id, ties among them, and some of them in progress.
    const [template] = await t.app.db.select().from(cases).where(eq(cases.caseId, surnameCase!));
    const { caseId: _id, ...copy } = template!;
    await t.app.db
      .insert(cases)
      .values(
        Array.from({ length: 220 }, (_, index) => ({ ...copy, trackingNo: `AL-DEEP-${index}`, lastName: 'Halloway' })),
      );
    const inScope = await t.app.db
      .select({ caseId: cases.caseId })
      .from(cases)
      .where(inArray(cases.doctorUserId, [doctor.userId, other.userId]));
    for (const [index, { caseId }] of inScope.entries()) {
      const minutes = (index * 7919) % 97; // a few minutes shared by several cases
      await t.app.db
        .update(cases)
        .set({
          createdAt: sql`timestamp '2026-01-01' + make_interval(mins => ${minutes})`,
          status: index % 5 === 0 ? 'inprogress' : 'new',
        })
        .where(eq(cases.caseId, caseId));
    }
    // What every page must be cut from: the matches, sorted, read without the search's indexes.
    const expected = async (status: string, direction: 'asc' | 'desc') => {
      const result = await t.app.db.execute(sql`select case_id from cases
        where (doctor_user_id = ${doctor.userId} or first_name ilike '%hallow%' or last_name ilike '%hallow%'
          or tracking_no ilike '%hallow%') and (${status} = 'all' or status = ${status})
        order by created_at ${sql.raw(direction)}, case_id ${sql.raw(direction)}`);
      return (result as unknown as { rows: { case_id: number }[] }).rows.map((row) => row.case_id);
    };
    for (const status of ['all', 'new', 'inprogress']) {
      for (const sort of ['-CreatedAt', 'CreatedAt']) {
        const all = await expected(status, sort.startsWith('-') ? 'desc' : 'asc');
        expect(all.length).toBeGreaterThan(status === 'inprogress' ? 40 : 170);
        for (const [page, pageSize] of [
          [1, 3],
          [2, 3],
          [5, 3],
          [3, 20],
          // Pages of the largest size ending within the first 200 matches, and past them.
          [6, 30],
          [7, 30],
        ] as const) {
          const response = await list(
            admin,
            `get_cases_by_status/${status}/0?search=HALLOW&sort=${sort}&page=${page}&pageSize=${pageSize}`,
          );
          const ids = response.json<Row[]>().map((row) => row.CaseId);
          expect(ids, `${status} ${sort} page ${page} of ${pageSize}`).toEqual(
            all.slice((page - 1) * pageSize, page * pageSize),
          );
          expect(response.headers['x-total-count']).toBe(String(all.length));
        }
      }
    }
  });

  it.runIf(process.env.DATABASE_URL)('plans a staff-wide search once per connection on PostgreSQL', async () => {
    // The pool hands out its last idle connection first: the one the searches run on.
    const plans = async () => {
      const result = (await keptPlans(t.app.db).execute(sql`select
          coalesce(sum(generic_plans), 0)::int as generic, coalesce(sum(custom_plans), 0)::int as custom
        from pg_prepared_statements where name like 'case_search_all%'`)) as unknown as {
        rows: { generic: number; custom: number }[];
      };
      return result.rows[0]!;
    };
    const before = await plans();
    // Words that match 32 names and doctors or fewer (quorra matches more: planned for its words).
    for (const word of ['kowal', 'hallow', 'berg', 'kowal', 'hallow', 'berg', 'kowal'])
      expect((await list(admin, `get_cases_by_status/all/0?search=${word}`)).statusCode).toBe(200);
    expect(await plans()).toEqual({ generic: before.generic + 7, custom: 0 });
  });
});
