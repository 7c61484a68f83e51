import { describe, expect, it } from 'vitest';
import { caseFileParts, firstStepWithError, initialCaseFormValues, stepOfField } from './case-form-values.ts';

const file = (name: string) => new File(['x'], name);

describe('case form values', () => {
  it('starts with the spec defaults, for the doctor or for a doctor staff will pick', () => {
    const values = initialCaseFormValues(12);
    expect(values).toMatchObject({
      isStaff: false,
      userId: '12',
      midline: 'Improve',
      overjet: 'Improve',
      overbite: 'Improve',
      crossBite: 'Correct',
      imageType: 'Individual',
      toothNumbering: 'Universal',
    });
    expect(initialCaseFormValues(null)).toMatchObject({ isStaff: true, userId: null });
  });

  it("starts from the doctor's saved defaults over the table's, a blank saved choice leaving the table's", () => {
    const values = initialCaseFormValues(12, {
      midline: 'Maintain',
      toothNumbering: 'FDI',
      overjet: '',
      shipment: 'With aligners',
    });
    expect(values).toMatchObject({
      midline: 'Maintain',
      toothNumbering: 'FDI',
      overjet: 'Improve',
      shipment: 'With aligners',
      firstname: '',
    });
  });

  it('finds the first step with an error', () => {
    expect(stepOfField('clinicId')).toBe(0);
    expect(stepOfField('moveTooth')).toBe(1);
    expect(stepOfField('termsAndCondition')).toBe(2);
    expect(firstStepWithError({ termsAndCondition: 'x', midline: 'y' })).toBe(1);
    expect(firstStepWithError({ firstname: null })).toBeNull();
  });

  it('sends scans, the photos of the chosen image type, then other files', () => {
    const values = {
      ...initialCaseFormValues(1),
      maxillaryScan: file('upper.stl'),
      frontSmiling: file('smile.png'),
      compositeImage: file('all.png'),
      opv: file('opg.png'),
      otherFiles: [file('a.png'), file('b.png')],
    };
    expect(caseFileParts(values).map((part) => part.field)).toEqual([
      'maxillaryScan',
      'frontSmiling',
      'opv',
      'otherFiles',
      'otherFiles',
    ]);
    expect(caseFileParts({ ...values, imageType: 'Composite' }).map((part) => part.field)).toEqual([
      'maxillaryScan',
      'opv',
      'compositeImage',
      'otherFiles',
      'otherFiles',
    ]);
  });
});
