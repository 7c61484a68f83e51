import { describe, expect, it } from 'vitest';
import {
  caseListQuery,
  caseStatusRequest,
  caseSubmission,
  isBackwardMove,
  toFieldErrors,
  toothList,
} from '../src/index.ts';

const valid = {
  firstname: ' Pat ',
  lastname: 'Patient',
  dob: '2001-03-05',
  clinicId: '4',
  arches: 'Both',
  nature: 'Overseas',
  alignerShipment: 'Complete',
  complaint: 'Spacing',
  impressionType: 'PVS Impression',
  midline: 'Maintain',
  overjet: 'Improve',
  overbite: 'Improve',
  crossBite: 'Maintain',
  termsAndCondition: '1',
};

describe('caseSubmission', () => {
  it('fills the spec defaults: image type Individual, empty lists N/A, optional picks empty', () => {
    const parsed = caseSubmission.parse(valid);
    expect(parsed).toMatchObject({
      firstname: 'Pat',
      clinicId: 4,
      imageType: 'Individual',
      moveTooth: 'N/A',
      noElastic: 'N/A',
      noAttachment: 'N/A',
      extractTooth: 'N/A',
      iprPrescription: 'N/A',
      gender: '',
      iprPreference: '',
      userId: null,
      termsAndCondition: true,
    });
  });

  it('normalises tooth lists and refuses teeth outside 1-32', () => {
    expect(toothList('X').parse(' 3, 14 ,3,32')).toBe('3,14,32');
    expect(toothList('X').safeParse('0').success).toBe(false);
    expect(toothList('X').safeParse('1,,2').success).toBe(false);
  });

  it('refuses a rank chosen twice, on the later field', () => {
    const result = caseSubmission.safeParse({
      ...valid,
      iprPreference: 'Second preference',
      extraction: 'Second preference',
    });
    expect(result.success).toBe(false);
    expect(toFieldErrors(result.error!)).toEqual({ extraction: 'Second preference is already chosen for IPR' });
  });
});

describe('caseListQuery', () => {
  it('takes listed sort columns only', () => {
    expect(caseListQuery.parse({ sort: '-CreatedAt', page: '2' })).toEqual({ sort: '-CreatedAt', page: 2 });
    expect(caseListQuery.safeParse({ sort: 'password_hash' }).success).toBe(false);
  });
});

describe('caseStatusRequest', () => {
  it('takes { status } alone, as before, and trims the texts a move carries', () => {
    expect(caseStatusRequest.parse({ status: 'inprogress' })).toEqual({ status: 'inprogress' });
    expect(caseStatusRequest.parse({ status: 'new', reason: ' Redo scans ', note: '' })).toEqual({
      status: 'new',
      reason: 'Redo scans',
      note: '',
    });
  });

  it('asks for courier and tracking number to dispatch, one message per field', () => {
    const result = caseStatusRequest.safeParse({ status: 'dispatched', courier: '  ' });
    expect(result.success).toBe(false);
    expect(toFieldErrors(result.error!)).toEqual({
      courier: 'Courier is required for a dispatched case',
      trackingNumber: 'Tracking number is required for a dispatched case',
    });
  });

  it('knows which moves go back', () => {
    expect(isBackwardMove('dispatched', 'inprogress')).toBe(true);
    expect(isBackwardMove('new', 'delivered')).toBe(false);
  });
});
