import { caseFieldList } from '@portal/contract';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { pgSchema, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases } from '../src/db/schema.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Columns of the cases table that are the workflow's, not the form's. */
const workflowColumns = {
  caseId: 'case_id',
  trackingNo: 'tracking_no',
  doctorUserId: 'doctor_user_id',
  status: 'status',
  planState: 'plan_state',
  parentCaseId: 'parent_case_id',
  orderType: 'order_type',
  assigneeUserId: 'assignee_user_id',
  statusChangedAt: 'status_changed_at',
  // The latest done progress scan has a tooth off track (docs/decisions/progress-scans.md).
  offTrack: 'off_track',
  termsAcceptedAt: 'terms_accepted_at',
  patientNameFolded: 'patient_name_folded',
  createdAt: 'created_at',
  createdBy: 'created_by',
};

const informationSchemaColumns = pgSchema('information_schema').table('columns', {
  tableSchema: text('table_schema'),
  tableName: text('table_name'),
  columnName: text('column_name'),
});

const fieldColumns = Object.fromEntries(caseFieldList.map((field) => [field.key, field.column]));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the case field table (packages/contract/src/case-fields.ts)', () => {
  it('names every column of the Drizzle cases table but the workflow ones, by property and column', () => {
    const drizzleColumns = Object.fromEntries(
      Object.entries(getTableColumns(cases)).map(([property, column]) => [property, column.name]),
    );
    expect(drizzleColumns).toEqual({ ...workflowColumns, ...fieldColumns });
  });

  it('matches the migrated database, so a field without its migration fails', async () => {
    const rows = await t.app.db
      .select({ name: informationSchemaColumns.columnName })
      .from(informationSchemaColumns)
      .where(
        and(
          eq(informationSchemaColumns.tableName, 'cases'),
          eq(informationSchemaColumns.tableSchema, sql`current_schema()`),
        ),
      );
    expect(rows.map((row) => row.name).sort()).toEqual(
      [...Object.values(workflowColumns), ...Object.values(fieldColumns)].sort(),
    );
  });

  it('gives each field its own name as sent, as read and in the database', () => {
    for (const name of ['sent', 'read', 'column'] as const) {
      const names = caseFieldList.map((field) => field[name]);
      expect(new Set(names).size, name).toBe(names.length);
    }
  });
});
