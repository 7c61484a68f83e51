import type { CaseRow } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../../lib/i18n.ts';
import { caseDetailItems, caseFieldItems } from './case-fields.ts';

// English, the spec's words, as the app's tests show them (testing/render.tsx).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const caseRow = {
  CaseId: 1,
  TrackingNo: 'AL-2611-7K3Q9D',
  FirstName: 'Pat',
  LastName: 'Patient',
  DOB: '2001-03-05',
  doctorname: 'Grace Hopper',
  Gender: '',
  ClinicId: 3,
  ArchesToTreat: 'Both',
  ChiefComplaint: 'Crowding',
  IPR: 'First preference',
  IPRStage: 'No IPR',
  ToothNumberingSystem: 'FDI',
  MoveTooth: '1,14',
  NoElastic: 'N/A',
  SpecialInstruction: '',
  ImpressionType: 'PVS Impression',
} as CaseRow;

const valuesOf = (items: { label: string; value: unknown }[]) =>
  Object.fromEntries(items.map((item) => [item.label, item.value]));

describe('case detail rows from the case field table', () => {
  it('shows the details as read: one Name, the date spelled out, empty as N/A, the doctor for staff', () => {
    const values = valuesOf(caseDetailItems(caseRow, true));
    expect(values).toMatchObject({
      'Tracking No': 'AL-2611-7K3Q9D',
      Doctor: 'Grace Hopper',
      Name: 'Pat Patient',
      'Date of Birth': 'March 5, 2001',
      Gender: 'N/A',
      'Arches To Treat': 'Both',
      'Chief Complaint': 'Crowding',
    });
    expect(values).not.toHaveProperty('Clinic');
    expect(valuesOf(caseDetailItems(caseRow, false))).not.toHaveProperty('Doctor');
  });

  it('shows treatment teeth in the case numbering, and the records', () => {
    const treatment = valuesOf(caseFieldItems(caseRow, 'treatment'));
    expect(treatment).toMatchObject({
      IPR: 'First preference',
      'Tooth Numbering': 'FDI',
      "Don't Move Tooth": '18, 26',
      'No Elastic': 'N/A',
      'Special Instructions': 'N/A',
    });
    expect(valuesOf(caseFieldItems(caseRow, 'records'))).toEqual({ 'Impression Type': 'PVS Impression' });
  });
});
