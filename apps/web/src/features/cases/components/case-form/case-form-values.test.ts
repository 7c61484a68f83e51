import { describe, expect, it } from 'vitest';
import type { CaseRow } from '@portal/contract';
import {
  caseFileParts,
  firstStepWithError,
  initialCaseFormValues,
  orderFormValues,
  stepOfField,
} from './case-form-values.ts';

const file = (name: string) => new File(['x'], name);

describe('case form values', () => {
  it("start an order as its parent: patient, prescription and teeth, for the parent's doctor, without files", () => {
    const parent = {
      CaseId: 7,
      TrackingNo: 'AL-2611-ABCDEF',
      DoctorUserId: 31,
      FirstName: 'Łucja',
      LastName: 'Orderly',
      DOB: '2001-03-05',
      ClinicId: 4,
      Gender: '',
      Midline: 'Maintain',
      MoveTooth: '3,14',
      ExtractTooth: 'N/A',
      SpecialInstruction: 'Gentle forces',
    } as unknown as CaseRow;
    const values = orderFormValues(initialCaseFormValues(null), parent, 'Refinement');
    expect(values).toMatchObject({
      picksDoctor: true,
      userId: '31',
      parentCaseId: '7',
      orderType: 'Refinement',
      firstname: 'Łucja',
      lastname: 'Orderly',
      dob: '2001-03-05',
      clinicId: '4',
      gender: null,
      midline: 'Maintain',
      moveTooth: '3,14',
      extractTooth: '',
      specialInstruction: 'Gentle forces',
      maxillaryScan: null,
      otherFiles: [],
      termsAndCondition: false,
    });
    // From a progress scan: its off-track teeth before the parent's instructions, its files as the scans.
    const fromScan = orderFormValues(initialCaseFormValues(null), parent, 'Refinement', {
      progressScanId: 5,
      arches: ['upper'],
      instructions: 'Off track: 16, 24.',
    });
    expect(fromScan).toMatchObject({
      progressScanId: '5',
      progressScanArches: ['upper'],
      specialInstruction: 'Off track: 16, 24.\n\nGentle forces',
      maxillaryScan: null,
    });
    expect(values.progressScanId).toBeNull();
  });

  it('starts with the spec defaults, for the doctor or for a doctor staff will pick', () => {
    const values = initialCaseFormValues(12);
    expect(values).toMatchObject({
      picksDoctor: false,
      userId: '12',
      midline: 'Improve',
      overjet: 'Improve',
      overbite: 'Improve',
      crossBite: 'Correct',
      imageType: 'Individual',
      toothNumbering: 'Universal',
    });
    expect(initialCaseFormValues(null)).toMatchObject({ picksDoctor: true, userId: null });
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
