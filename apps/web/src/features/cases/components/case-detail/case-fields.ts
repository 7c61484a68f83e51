import { caseOptions, type CaseRow } from '@portal/contract';
import { formatDateOnly } from '../../../../lib/format-date.ts';
import { formatToothList, type NumberingSystem } from '../../lib/tooth-numbering.ts';
import { orNotAvailable, type DetailItem } from './detail-list.tsx';

const numberingSystem = (value: string): NumberingSystem =>
  (caseOptions.toothNumbering as readonly string[]).includes(value) ? (value as NumberingSystem) : 'Universal';

/** Step 1 of the case form, as read. */
export function caseDetailItems(caseRow: CaseRow, showDoctor: boolean): DetailItem[] {
  return [
    { label: 'Tracking No', value: caseRow.TrackingNo },
    { label: 'Name', value: orNotAvailable(`${caseRow.FirstName} ${caseRow.LastName}`) },
    { label: 'Date of Birth', value: formatDateOnly(caseRow.DOB) },
    { label: 'Gender', value: orNotAvailable(caseRow.Gender) },
    ...(showDoctor ? [{ label: 'Doctor', value: orNotAvailable(caseRow.doctorname) }] : []),
    { label: 'Arches To Treat', value: orNotAvailable(caseRow.ArchesToTreat) },
    { label: 'Nature of Patient', value: orNotAvailable(caseRow.NatureOfPatient) },
    { label: 'Retainer Shipment Preference', value: orNotAvailable(caseRow.RetainerShipmentPreference) },
    { label: 'Passive Aligners', value: orNotAvailable(caseRow.PassiveAligners) },
    { label: 'Aligner Shipment Preference', value: orNotAvailable(caseRow.AlignerShipmentPreference) },
    { label: 'Chief Complaint', value: orNotAvailable(caseRow.ChiefComplaint), isWide: true },
  ];
}

/** Step 2 of the case form; tooth lists in the case's numbering system. */
export function treatmentItems(caseRow: CaseRow): DetailItem[] {
  const system = numberingSystem(caseRow.ToothNumberingSystem);
  return [
    { label: 'Midline', value: orNotAvailable(caseRow.Midline) },
    { label: 'Overjet', value: orNotAvailable(caseRow.Overjet) },
    { label: 'Overbite', value: orNotAvailable(caseRow.Overbite) },
    { label: 'Cross Bite', value: orNotAvailable(caseRow.CrossBite) },
    { label: 'Right Canine', value: orNotAvailable(caseRow.RightCanine) },
    { label: 'Left Canine', value: orNotAvailable(caseRow.LeftCanine) },
    { label: 'Right Molar', value: orNotAvailable(caseRow.RightMolar) },
    { label: 'Left Molar', value: orNotAvailable(caseRow.LeftMolar) },
    { label: 'IPR', value: orNotAvailable(caseRow.IPR) },
    { label: 'Proclination', value: orNotAvailable(caseRow.Proclination) },
    { label: 'Expansion', value: orNotAvailable(caseRow.Expansion) },
    { label: 'Extraction', value: orNotAvailable(caseRow.Extraction) },
    { label: 'IPR Prescription', value: orNotAvailable(caseRow.IPRPrescription) },
    { label: 'Auxiliary Type', value: orNotAvailable(caseRow.AuxiliaryType) },
    { label: 'Tooth Numbering', value: orNotAvailable(caseRow.ToothNumberingSystem) },
    { label: "Don't Move Tooth", value: formatToothList(caseRow.MoveTooth, system) },
    { label: 'No Elastic', value: formatToothList(caseRow.NoElastic, system) },
    { label: 'No Attachment', value: formatToothList(caseRow.NoAttachment, system) },
    { label: 'Extract Tooth', value: formatToothList(caseRow.ExtractTooth, system) },
    { label: 'Special Instructions', value: orNotAvailable(caseRow.SpecialInstruction), isWide: true },
  ];
}
