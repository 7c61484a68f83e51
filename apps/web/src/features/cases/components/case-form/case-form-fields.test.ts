import { caseFieldList } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { initialCaseFormValues, stepOfField, submissionInput } from './case-form-values.ts';

describe('case form fields from the case field table', () => {
  it('starts every field with an input, and no field the form fills itself', () => {
    const values = initialCaseFormValues(3);
    for (const field of caseFieldList) {
      expect(field.sent in values, field.sent).toBe(field.section !== null);
    }
    expect(values).toMatchObject({ gender: null, clinicId: null, iprPreference: '', moveTooth: '', complaint: '' });
  });

  it('sends the IPR Prescription pick as iprPrescription too, and finds its step', () => {
    const values = { ...initialCaseFormValues(3), ipr: 'Initial stage IPR' as const };
    expect(submissionInput(values)).toMatchObject({ ipr: 'Initial stage IPR', iprPrescription: 'Initial stage IPR' });
    expect(submissionInput(initialCaseFormValues(3))).toMatchObject({ iprPrescription: '' });
    expect(stepOfField('iprPrescription')).toBe(1);
    expect(stepOfField('auxilliaryType')).toBe(1);
    expect(stepOfField('impressionType')).toBe(2);
    expect(stepOfField('userId')).toBe(0);
  });
});
