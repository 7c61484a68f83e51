import { caseFieldList, fieldsOfKind, type CaseFieldEntry } from '@portal/contract';

/**
 * Submission values for the case field table (packages/contract/src/case-fields.ts), for the
 * API tests (apps/server/test/helpers/case-factories.ts) and the browser tests alike. Built
 * from the table, so a field added to it is sent by every fixture without touching them.
 */

const rankFields = fieldsOfKind('rank').map((field) => field.key);

/** A valid value for one field from its kind alone: the table's options, a past date, the given clinic. */
function sampleValue(field: CaseFieldEntry, clinicId: number): string | number {
  switch (field.kind) {
    case 'text':
      return `${field.label} sample`;
    case 'date':
      return '2001-03-05';
    case 'clinic':
      return clinicId;
    case 'choice':
      return field.options.at(-1)!;
    // Each ranked field its own rank: one rank cannot be given twice.
    case 'rank':
      return field.options[rankFields.indexOf(field.key)] ?? '';
    case 'teeth':
      return '3, 14';
  }
}

/** Every field of the table by its submission name, each with a value built from its kind. */
export function everyFieldSample(clinicId: number): Record<string, string | number> {
  return Object.fromEntries(caseFieldList.map((field) => [field.sent, sampleValue(field, clinicId)]));
}

type SentName = CaseFieldEntry['sent'];

/**
 * Readable values the tests search and assert on (a patient named Pat Patient, ...), laid
 * over the sample; a field no longer in the table fails the type check here.
 */
export const readableCaseFields = {
  firstname: 'Pat',
  lastname: 'Patient',
  dob: '2001-03-05',
  gender: 'Female',
  arches: 'Both',
  nature: 'Local',
  shipment: 'With aligners',
  passiveAligner: 'No',
  alignerShipment: 'Batches',
  ipr: 'Initial stage IPR',
  complaint: 'Crowding of the lower incisors',
  impressionType: 'PVS Impression',
  imageType: 'Individual',
  midline: 'Improve',
  overjet: 'Improve',
  overbite: 'Maintain',
  crossBite: 'Correct',
  rightCanine: 'Class-I (if possible)',
  leftCanine: 'Improve',
  rightMolar: 'Maintain',
  leftMolar: 'Improve',
  iprPreference: 'First preference',
  proclination: 'Second preference',
  expansion: 'Third preference',
  extraction: 'Fourth preference',
  iprPrescription: 'Upper anteriors 0.2 mm',
  auxilliaryType: 'Attachment',
  toothNumbering: 'Universal',
  moveTooth: '1, 2,16',
  noElastic: '',
  noAttachment: '8',
  extractTooth: 'N/A',
  specialInstruction: 'None',
} as const satisfies Partial<Record<SentName, string>>;
