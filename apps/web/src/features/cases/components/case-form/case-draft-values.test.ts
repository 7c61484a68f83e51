import { describe, expect, it } from 'vitest';
import { draftOf, restoredCaseFormValues } from './case-draft-values.ts';
import { initialCaseFormValues } from './case-form-values.ts';

const draft = (fields: Record<string, string>, doctorUserId: number | null = null) => ({
  draftId: 4,
  patientName: '',
  doctorUserId,
  step: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  fields,
  files: {},
});

describe('case drafts in the form', () => {
  it('keeps the fields filled in, by submission name, and leaves out blanks, picks not made, files and terms', () => {
    const values = { ...initialCaseFormValues(12), firstname: 'Ada', gender: null, moveTooth: '3,14', lastname: '' };
    const saved = draftOf({ ...values, termsAndCondition: true }, 2);
    expect(saved.step).toBe(2);
    expect(saved.doctorUserId).toBeNull();
    expect(saved.fields).toMatchObject({ firstname: 'Ada', moveTooth: '3,14', midline: 'Improve' });
    expect(Object.keys(saved.fields)).not.toContain('gender');
    expect(Object.keys(saved.fields)).not.toContain('lastname');
    expect(Object.keys(saved.fields)).not.toContain('termsAndCondition');
    expect(saved.files).toEqual({});
  });

  it('keeps the doctor staff picked, and brings it back with every field', () => {
    const values = { ...initialCaseFormValues(null), userId: '31', complaint: 'Gap' };
    expect(draftOf(values, 0).doctorUserId).toBe(31);
    const restored = restoredCaseFormValues(null, {}, draft({ complaint: 'Gap', noElastic: '8' }, 31));
    expect(restored).toMatchObject({
      isStaff: true,
      userId: '31',
      complaint: 'Gap',
      noElastic: '8',
      midline: 'Improve',
    });
  });

  it("restores a doctor's draft over their defaults, and ignores keys the form has no input for", () => {
    const restored = restoredCaseFormValues(
      12,
      { midline: 'Maintain' },
      draft({ firstname: 'Bo', iprPrescription: 'x' }),
    );
    expect(restored).toMatchObject({ userId: '12', firstname: 'Bo', midline: 'Maintain' });
    expect(restored).not.toHaveProperty('iprPrescription');
  });
});
