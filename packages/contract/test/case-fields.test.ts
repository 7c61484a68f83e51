import { describe, expect, it } from 'vitest';
import {
  caseFieldList,
  caseFields,
  caseFormSteps,
  caseRow,
  caseSortColumns,
  caseSubmission,
  sortableCaseFieldColumns,
  sortableCaseFields,
  stepOfCaseField,
  type CaseFieldDetail,
} from '../src/index.ts';

describe('the case field table', () => {
  it('puts every field on a step of the form, and every section on exactly one step', () => {
    const sections = caseFormSteps.flatMap((step) => step.sections as readonly string[]);
    expect(new Set(sections).size).toBe(sections.length);
    for (const field of caseFieldList) expect(stepOfCaseField(field), field.key).toBeGreaterThanOrEqual(0);
  });

  it('fills a field without an input from a field that has one, and joins detail rows with fields', () => {
    for (const field of caseFieldList) {
      if (field.section !== null) continue;
      const from = 'formValueFrom' in field ? field.formValueFrom : undefined;
      expect(caseFieldList.find((other) => other.sent === from)?.section, field.key).toBeTruthy();
    }
    for (const field of caseFieldList) {
      const detail: CaseFieldDetail | null = field.detail;
      if (detail?.joinedWith) expect(caseFields).toHaveProperty(detail.joinedWith);
    }
  });

  it('gives the submission and the case row one property per field, beside the workflow ones', () => {
    expect(Object.keys(caseSubmission.shape)).toEqual([
      ...caseFieldList.map((field) => field.sent),
      'userId',
      'termsAndCondition',
      'parentCaseId',
      'orderType',
      'uploads',
      'progressScanId',
      'draftId',
    ]);
    expect(Object.keys(caseRow.shape).sort()).toEqual(
      [
        ...caseFieldList.map((field) => field.read),
        'CaseId',
        'TrackingNo',
        'doctorname',
        'Status',
        'CreatedAt',
        'DoctorUserId',
        'StatusChangedAt',
        'AssigneeUserId',
        'AssigneeName',
        'OffTrack',
      ].sort(),
    );
    expect(caseSortColumns).toEqual(expect.arrayContaining(['FirstName', 'DOB', 'ImpressionType', 'CreatedAt']));
  });

  it('sorts the list by exactly the fields the table marks sortable (case-list.ts keeps them without zod)', () => {
    expect([...sortableCaseFieldColumns].sort()).toEqual([...sortableCaseFields].sort());
  });
});
