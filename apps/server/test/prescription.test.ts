import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../src/db/schema.ts';
import { asciiStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { createStaff, firstCityOf, makeImage } from './helpers/factories.ts';
import { pdfText } from './helpers/pdf-text.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** GET /case/{caseId}/prescription.pdf: the printable prescription (docs/decisions/case-form.md § Printable prescription). */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
let created: { CaseId: number; TrackingNo: string };

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  other = await createCaseDoctor(t);
  const fields = caseFields(doctor.clinicId, {
    firstname: 'Ada',
    lastname: 'Lovelace',
    toothNumbering: 'FDI',
    moveTooth: '3,14',
    extractTooth: '30',
    specialInstruction: 'Keep the bridge on 46',
  });
  const response = await submitCase(
    t,
    doctor.token,
    caseForm(fields, {
      maxillaryScan: { data: asciiStl(), name: 'upper.stl' },
      front: { data: await makeImage(), name: 'front.png', type: 'image/png' },
    }),
  );
  if (response.statusCode !== 200) throw new Error(response.body);
  created = response.json();
});
afterAll(() => t.close());

const prescriptionUrl = (caseId: number) => `/api/case/${caseId}/prescription.pdf`;

async function setNotation(token: string, toothNotation: 'FDI' | 'Universal' | 'Palmer') {
  const saved = await t.as(token, { method: 'PUT', url: '/api/account/tooth-notation', payload: { toothNotation } });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('GET /case/{caseId}/prescription.pdf', () => {
  it("answers the case's doctor an A4 PDF with the patient, clinic, instructions, marked teeth and files", async () => {
    const response = await t.as(doctor.token, { method: 'GET', url: prescriptionUrl(created.CaseId) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="prescription-${created.TrackingNo}.pdf"`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);

    const text = pdfText(pdf);
    const shown = text.join('\n');
    expect(text).toContain(created.TrackingNo);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Grace Hopper');
    expect(shown).toContain('Smile Clinic');
    // Instructions from the case field table, as the detail view shows them.
    expect(text).toContain('Midline');
    expect(text).toContain('Keep the bridge on 46');
    expect(text).toContain('Class-I (if possible)');
    // Teeth in the reader's notation (the doctor's default here is FDI, their clinic being outside
    // the US), as the case is numbered: Universal 3, 14 and 30 are FDI 16, 26 and 46.
    expect(text).toContain('16, 26');
    expect(text).toContain('46');
    expect(text).toContain('Numbering: FDI');
    expect(shown).toContain('upper.stl');
    expect(shown).toContain('front.png');
  });

  it('gives Dashboard staff the PDF and records the print in the audit log', async () => {
    const staff = await createStaff(t, [1]);
    const response = await t.as(staff.token, { method: 'GET', url: prescriptionUrl(created.CaseId) });
    expect(response.statusCode).toBe(200);
    expect(pdfText(response.rawPayload)).toContain('Ada Lovelace');
    await vi.waitFor(
      async () => {
        const rows = await t.app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'case.print'), eq(auditLog.actorUserId, staff.userId)));
        expect(rows.map((row) => [row.target, row.outcome])).toEqual([[`case:${created.CaseId}`, 'success']]);
      },
      { timeout: scaled(5000), interval: 20 },
    );
  });

  it("is 404 for another doctor's case and an unknown one, 401 without a session, 403 without the Dashboard page", async () => {
    const refused = await t.as(other.token, { method: 'GET', url: prescriptionUrl(created.CaseId) });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Case not found');
    expect((await t.as(doctor.token, { method: 'GET', url: prescriptionUrl(999999) })).statusCode).toBe(404);
    expect((await t.as(null, { method: 'GET', url: prescriptionUrl(created.CaseId) })).statusCode).toBe(401);
    const withoutDashboard = await createStaff(t, [6]);
    expect(
      (await t.as(withoutDashboard.token, { method: 'GET', url: prescriptionUrl(created.CaseId) })).statusCode,
    ).toBe(403);
    expect((await t.as(doctor.token, { method: 'GET', url: '/api/case/abc/prescription.pdf' })).statusCode).toBe(400);
  });

  it('names the X-rays as the case page does, breaks the chief complaint where it was broken and prints the whole clinic address', async () => {
    const address = 'Building 7, Floor 3, Suite 12, 1234 Long Orthodontic Avenue, next to the Old Market Square';
    const cityId = await firstCityOf(t);
    const clinicList = [{ clinicId: 0, clinicName: 'Far Clinic', countryId: 1, cityId, contactNo: '123456', address }];
    const farDoctor = await createCaseDoctor(t, { clinicList: JSON.stringify(clinicList) });
    const fields = caseFields(farDoctor.clinicId, { complaint: 'Upper crowding\r\nLower spacing\r\n\r\nDeep bite' });
    const xRay = { data: await makeImage(), name: 'x-ray.png', type: 'image/png' };
    const response = await submitCase(t, farDoctor.token, caseForm(fields, { opv: xRay, leteralCeloform: xRay }));
    expect(response.statusCode, response.body).toBe(200);
    const printed = await t.as(farDoctor.token, { method: 'GET', url: prescriptionUrl(response.json().CaseId) });
    expect(printed.statusCode).toBe(200);
    const text = pdfText(printed.rawPayload);

    expect(text).toEqual(expect.arrayContaining(['X-Ray OPG', 'X-Ray CEPH']));
    expect(text.join('\n')).not.toMatch(/OPV|Leteral|Celoform/);
    expect(text).toEqual(expect.arrayContaining(['Upper crowding', 'Lower spacing', 'Deep bite']));
    // No box for a line break (pdfkit's glyph for CR, which the ToUnicode map reads as U+0000).
    expect(text.filter((line) => ['\u0000', '\r', '\ufffd'].some((box) => line.includes(box)))).toEqual([]);
    expect(text.join(' ').replace(/\s+/g, ' ')).toContain(`${address}, `);
  });

  it("prints Palmer's corner symbols, every letter of a name and a long case on further pages", async () => {
    const fields = caseFields(doctor.clinicId, {
      firstname: 'Zoë Ğül',
      lastname: 'Łukasz Żółć',
      toothNumbering: 'Palmer',
      moveTooth: '1,9',
      specialInstruction: `Пациентка Αλεξάνδρα. ${'Gentle forces. '.repeat(300)}`,
      complaint: 'Crowding. '.repeat(400),
    });
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(fields, { maxillaryScan: { data: asciiStl(), name: 'upper.stl' } }),
    );
    const { CaseId } = response.json<{ CaseId: number }>();
    // Teeth are printed in the reader's notation: this reader reads Palmer.
    await setNotation(doctor.token, 'Palmer');
    const printed = await t.as(doctor.token, { method: 'GET', url: prescriptionUrl(CaseId) });
    await setNotation(doctor.token, 'FDI');
    const text = pdfText(printed.rawPayload);
    expect(printed.statusCode).toBe(200);
    expect(text).toContain('8┘, └1');
    expect(text).toContain('Zoë Ğül Łukasz Żółć');
    expect(text.join('\n')).toContain('Пациентка Αλεξάνδρα');
    expect(text.some((line) => /^Page 2 of \d$/.test(line))).toBe(true);
  });

  it("names the teeth in each reader's notation, whatever the case's numbering, chart and lists alike", async () => {
    const staff = await createStaff(t, [1]);
    await setNotation(staff.token, 'Universal');
    const universal = pdfText((await t.as(staff.token, { method: 'GET', url: prescriptionUrl(created.CaseId) })).rawPayload);
    expect(universal).toContain('Numbering: Universal');
    expect(universal).toContain('3, 14');
    expect(universal).not.toContain('16, 26');
    // The case's own field still says how the doctor numbered it.
    expect(universal).toContain('FDI');
    await setNotation(staff.token, 'Palmer');
    const palmer = pdfText((await t.as(staff.token, { method: 'GET', url: prescriptionUrl(created.CaseId) })).rawPayload);
    expect(palmer).toContain('Numbering: Palmer');
    expect(palmer).toContain('6┘, └6');
  });
});
