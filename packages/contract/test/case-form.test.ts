import { describe, expect, it } from 'vitest';
import { caseFileMessages, caseForm } from '../src/index.ts';

const filled = {
  picksDoctor: false,
  userId: '7',
  firstname: 'Pat',
  lastname: 'Patient',
  dob: '2001-03-05',
  clinicId: '3',
  arches: 'Both',
  nature: 'Local',
  alignerShipment: 'Batches',
  complaint: 'Crowding',
  impressionType: 'PVS Impression',
  midline: 'Improve',
  overjet: 'Improve',
  overbite: 'Improve',
  crossBite: 'Correct',
  termsAndCondition: true,
  maxillaryScan: null,
};

const errorsOf = (values: Record<string, unknown>) => {
  const result = caseForm.safeParse(values);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('caseForm', () => {
  it('accepts a filled form', () => {
    expect(errorsOf(filled)).toEqual({});
  });

  it('asks staff for the doctor, and a digital impression for the maxillary scan, alongside the other messages', () => {
    expect(
      errorsOf({ ...filled, picksDoctor: true, userId: null, impressionType: 'Digital Impression', firstname: ' ' }),
    ).toEqual({
      firstname: 'First Name is required',
      userId: 'Doctor is required',
      maxillaryScan: caseFileMessages.maxillaryScanRequired,
    });
  });

  it('takes a digital impression with its scan, and keeps the rule that a rank is used once', () => {
    expect(errorsOf({ ...filled, impressionType: 'Digital Impression', maxillaryScan: { name: 'upper.stl' } })).toEqual(
      {},
    );
    expect(errorsOf({ ...filled, iprPreference: 'First preference', extraction: 'First preference' })).toEqual({
      extraction: 'First preference is already chosen for IPR',
    });
  });
});
