import sharp from 'sharp';
import { endpoints } from '@portal/contract';
import { portalApi } from './api.ts';

export interface CaseFile {
  name: string;
  data: Uint8Array<ArrayBuffer> | string;
  type?: string;
}

/** A one-triangle ASCII STL; `y` moves it down so the lower scan sits below the upper one. */
export const asciiStl = (y = 0) =>
  `solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 ${y} 0\nvertex 1 ${y} 0\nvertex 0 ${y + 1} 0\nendloop\nendfacet\nendsolid t\n`;

export const pngPhoto = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 205, g: 130, b: 95 } } })
    .png()
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer));

/** Upper and lower STL scans and a PNG photo, by their multipart field names. */
export async function defaultCaseFiles(): Promise<Record<string, CaseFile>> {
  return {
    maxillaryScan: { name: 'upper.stl', data: asciiStl(0) },
    mandibularScan: { name: 'lower.stl', data: asciiStl(-1.2) },
    frontSmiling: { name: 'smile.png', data: await pngPhoto(), type: 'image/png' },
  };
}

/** Every text field of a valid submission (packages/contract caseSubmission). */
function caseFields(clinicId: number, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    firstname: 'Pat',
    lastname: 'Patient',
    dob: '2001-03-05',
    gender: 'Female',
    clinicId: String(clinicId),
    arches: 'Both',
    nature: 'Local',
    shipment: 'With aligners',
    passiveAligner: 'No',
    alignerShipment: 'Batches',
    ipr: 'Initial stage IPR',
    complaint: 'Crowding of the lower incisors',
    impressionType: 'Digital Impression',
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
    moveTooth: '',
    noElastic: '',
    noAttachment: '',
    extractTooth: '',
    specialInstruction: '',
    termsAndCondition: 'true',
    ...overrides,
  };
}

/** The signed-in user's id: the token's `sub` claim. */
const userIdOf = (token: string) =>
  Number((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub);

/** Submits a case as the doctor (POST /case/add, multipart) at their first clinic. */
export async function submitCase(
  doctorToken: string,
  files?: Record<string, CaseFile>,
  overrides: Record<string, string> = {},
): Promise<{ CaseId: number; TrackingNo: string }> {
  const api = portalApi();
  const [clinic] = await api.call(
    endpoints.clinicListOfUser,
    { params: { id: userIdOf(doctorToken) } },
    { token: doctorToken },
  );
  const form = new FormData();
  for (const [key, value] of Object.entries(caseFields(clinic!.ClinicId, overrides))) form.append(key, value);
  for (const [field, file] of Object.entries(files ?? (await defaultCaseFiles()))) {
    form.append(field, new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  return api.call(endpoints.caseCreate, { body: form }, { token: doctorToken });
}
