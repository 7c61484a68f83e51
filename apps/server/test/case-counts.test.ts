import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseCounts, caseStatusTotals, cases } from '../src/db/schema.ts';
import { asciiStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { approvedPlan } from './helpers/plan-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What counting every case would say, per doctor and status. */
async function countedByScan() {
  const rows = await t.app.db
    .select({ doctorUserId: cases.doctorUserId, status: cases.status, count: sql<number>`count(*)::int` })
    .from(cases)
    .groupBy(cases.doctorUserId, cases.status);
  return Object.fromEntries(rows.map((row) => [`${row.doctorUserId}/${row.status}`, row.count]));
}

async function keptCounts() {
  const rows = await t.app.db.select().from(caseCounts);
  return Object.fromEntries(
    rows.filter((row) => row.count > 0).map((row) => [`${row.doctorUserId}/${row.status}`, row.count]),
  );
}

/** What counting every case would say per status, beside what case_status_totals keeps (every status has a row). */
async function totals() {
  const scanned = await t.app.db
    .select({ status: cases.status, count: sql<number>`count(*)::int` })
    .from(cases)
    .groupBy(cases.status);
  const kept = await t.app.db.select().from(caseStatusTotals);
  return {
    kept: Object.fromEntries(kept.map((row) => [row.status, row.count])),
    scanned: Object.fromEntries(
      ['new', 'inprogress', 'dispatched', 'delivered'].map((status) => [
        status,
        scanned.find((row) => row.status === status)?.count ?? 0,
      ]),
    ),
  };
}

describe('case_counts', () => {
  it('follows every insert, status change and delete, and the stats and totals read it', async () => {
    const admin = await t.adminToken();
    const doctors = [await createCaseDoctor(t), await createCaseDoctor(t)];
    const caseIds: number[] = [];
    for (const [index, doctor] of [doctors[0]!, doctors[0]!, doctors[0]!, doctors[1]!, doctors[1]!].entries()) {
      const form = caseForm(caseFields(doctor.clinicId, { firstname: `Pat${index}` }), {
        maxillaryScan: { data: asciiStl(), name: 'upper.stl' },
      });
      const response = await submitCase(t, doctor.token, form);
      expect(response.statusCode, response.body).toBe(200);
      caseIds.push(response.json<{ CaseId: number }>().CaseId);
    }
    for (const [caseId, status] of [
      [caseIds[0], 'inprogress'],
      [caseIds[1], 'dispatched'],
      [caseIds[1], 'delivered'],
      [caseIds[3], 'inprogress'],
    ] as const) {
      const shipping = status === 'dispatched' ? { courier: 'UPS', trackingNumber: '1Z999' } : {};
      // Dispatch needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
      if (status === 'dispatched') await approvedPlan(t, admin, doctors[0]!.token, caseId!);
      const response = await t.as(admin, {
        method: 'PUT',
        url: `/api/case/status/${caseId}`,
        payload: { status, ...shipping },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    expect(await keptCounts()).toEqual(await countedByScan());
    const totalsNow = await totals();
    expect(totalsNow.kept).toEqual(totalsNow.scanned);

    const stats = await t.as(admin, { method: 'GET', url: '/api/case/get_all_stats/0' });
    expect(stats.json()).toEqual([
      { newcases: 2, total: 5, inprogress: 2, dispatched: 0, delivered: 1, awaitingApproval: 0, changesRequested: 0 },
    ]);
    const mine = await t.as(doctors[0]!.token, { method: 'GET', url: '/api/case/get_all_stats/0' });
    expect(mine.json()).toEqual([
      { newcases: 1, total: 3, inprogress: 1, dispatched: 0, delivered: 1, awaitingApproval: 0, changesRequested: 0 },
    ]);
    const page = await t.as(admin, {
      method: 'GET',
      url: '/api/case/get_cases_by_status/inprogress/0?page=1&pageSize=1',
    });
    expect(page.headers['x-total-count']).toBe('2');
    expect(page.json()).toHaveLength(1);

    // A row removed by hand (no API deletes cases) is still counted out by the trigger.
    await t.app.db.execute(sql`delete from case_status_history where case_id = ${caseIds[4]!}`);
    await t.app.db.execute(sql`delete from case_attachments where case_id = ${caseIds[4]!}`);
    await t.app.db.execute(sql`delete from cases where case_id = ${caseIds[4]!}`);
    expect(await keptCounts()).toEqual(await countedByScan());
    const totalsAfterDelete = await totals();
    expect(totalsAfterDelete.kept).toEqual(totalsAfterDelete.scanned);
  });
});

describe('migration 0012: per-status totals', () => {
  it('fills case_status_totals from the cases already there, and the trigger keeps it from then on', async () => {
    const doctor = await createCaseDoctor(t);
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: asciiStl(), name: 'upper.stl' } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const migration = await readFile(
      new URL('../drizzle/0012_case_sort_indexes_and_totals.sql', import.meta.url),
      'utf8',
    );
    const created = [...migration.matchAll(/CREATE (?:TABLE|INDEX) "(\w+)"/g)].map((match) => match[1]!);
    await t.app.db.execute(sql.raw(`drop index ${created.filter((name) => name.endsWith('_idx')).join(', ')}`));
    await t.app.db.execute(sql`drop table case_status_totals`);
    for (const statement of migration.split('--> statement-breakpoint')) await t.app.db.execute(sql.raw(statement));
    const migrated = await totals();
    expect(migrated.kept).toEqual(migrated.scanned);
    expect(migrated.kept.new).toBeGreaterThan(0);
    await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: asciiStl(), name: 'upper.stl' } }),
    );
    expect((await totals()).kept.new).toBe(migrated.kept.new! + 1);
  });
});
