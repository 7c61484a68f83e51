import { localeMessages, supportedLocales, type Locale } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { readCatalog } from '../src/i18n/index.ts';
import { pdfMessages, type PdfMessageKey } from '../src/services/prescription/pdf-messages.ts';
import { asciiStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { pdfText } from './helpers/pdf-text.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The prescription PDF in its reader's language (docs/decisions/languages.md § The prescription
 * PDF in every script): the text poppler's pdftotext reads back from each language's PDF is
 * the translated words in logical order, Arabic included (its shaped glyphs map back to its
 * letters), and every font is embedded as a subset.
 */

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let caseId: number;
let trackingNo: string;
const folder = mkdtempSync(path.join(os.tmpdir(), 'prescription-languages-'));

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  const fields = caseFields(doctor.clinicId, {
    firstname: 'Zoë Ğül',
    lastname: 'Łukasz Żółć',
    toothNumbering: 'FDI',
    moveTooth: '3,14',
    extractTooth: '30',
    passiveAligner: 'Yes',
    impressionType: 'Digital Impression',
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
  ({ CaseId: caseId, TrackingNo: trackingNo } = response.json<{ CaseId: number; TrackingNo: string }>());
});
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await t.close();
});

const url = (query = '') => `/api/case/${caseId}/prescription.pdf${query}`;

async function fetchPdf(query: string, token = doctor.token): Promise<Buffer> {
  const response = await t.as(token, { method: 'GET', url: url(query) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return response.rawPayload;
}

function poppler(tool: 'pdftotext' | 'pdffonts', pdf: Buffer, name: string): string {
  const file = path.join(folder, `${name}.pdf`);
  writeFileSync(file, pdf);
  const run = spawnSync(tool, tool === 'pdftotext' ? ['-enc', 'UTF-8', file, '-'] : [file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${tool}: ${run.stderr || run.error}`);
  return run.stdout;
}

/**
 * pdftotext's words without the bidi marks it puts around a right-to-left run, nor spaces and
 * line breaks (a label wraps where its box ends; Chinese has no spaces to keep).
 */
const bare = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, '');

/** The words the page shows as their message writes them, and the headings upper-cased by the language's rules. */
const shown: PdfMessageKey[] = [
  'prescription.title',
  'party.name',
  'party.email',
  'party.address',
  'section.caseDetails',
  'section.treatment',
  'section.toothChart',
  'section.records',
  'signature.doctor',
  'signature.date',
  'field.arches',
  'field.midline',
  'field.overjet',
  'field.crossBite',
  'field.specialInstruction',
  'field.impressionType',
  'field.passiveAligner',
  'option.yes',
  'option.digitalImpression',
  'chart.patientRight',
  'chart.patientLeft',
];
const headings = new Set<PdfMessageKey>([
  'section.caseDetails',
  'section.treatment',
  'section.toothChart',
  'section.records',
]);

describe('GET /case/{caseId}/prescription.pdf in every language', () => {
  const others = supportedLocales.filter((locale): locale is Exclude<Locale, 'en'> => locale !== 'en');

  it.each(others)('%s: the translated words in logical order, the fonts embedded as subsets', async (locale) => {
    const pdf = await fetchPdf(`?locale=${locale}`);
    const text = bare(poppler('pdftotext', pdf, locale));
    const translations = readCatalog(locale);
    const missing = shown
      .map((key) => {
        const words = translations[pdfMessages[key].id]!;
        return headings.has(key) ? words.toLocaleUpperCase(locale) : words;
      })
      .filter((words) => !text.includes(bare(words)));
    expect(missing).toEqual([]);
    // Values typed by people are printed as typed, in every script.
    expect(text).toContain(bare('Zoë Ğül Łukasz Żółć'));
    expect(text).toContain(trackingNo);
    expect(text).toContain('upper.stl');

    const fonts = poppler('pdffonts', pdf, `${locale}-fonts`).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) {
      // name type encoding emb sub uni: every font embedded, as a subset, with a ToUnicode map.
      expect(line, line).toMatch(/^[A-Z]{6}\+\S+ .* Identity-H\s+yes\s+yes\s+yes\s/);
    }
    if (locale === 'ar') expect(fonts.some((line) => line.includes('NotoNaskhArabic'))).toBe(true);
    if (locale === 'zh-CN') expect(fonts.some((line) => line.includes('NotoSansSC'))).toBe(true);
    // A page of Chinese embeds only the glyphs it uses: tens of kilobytes, not the font's 10 MB.
    expect(pdf.length).toBeLessThan(200_000);
  });

  it('Arabic: shaped glyphs read back as the letters (lam-alef too), no presentation forms, right to left', async () => {
    const text = poppler('pdftotext', await fetchPdf('?locale=ar'), 'ar-letters');
    expect(bare(text)).toContain(bare('وصفة العلاج بالمصففات الشفافة'));
    expect(bare(text)).toContain(bare('لا يتم تحريكها'));
    expect(bare(text)).toContain('نعم');
    expect(text).not.toMatch(/[\ufb50-\ufdff\ufe70-\ufeff]/);
    // pdftotext marks a right-to-left run (RLE ... PDF): the words were laid out right to left.
    expect(text).toMatch(/\u202b[^\u202c]*وصفة العلاج/);
  });

  it('Turkish and German: upper case by the language (İ) and the Latin accents', async () => {
    const turkish = bare(poppler('pdftotext', await fetchPdf('?locale=tr'), 'tr-case'));
    expect(turkish).toContain(bare('TAKİP NO'));
    expect(turkish).toContain(bare('VAKA AYRINTILARI'));
    const german = bare(poppler('pdftotext', await fetchPdf('?locale=de'), 'de-case'));
    expect(german).toContain(bare('Zähne nicht bewegen'));
    expect(german).toContain(bare('ZAHNSCHEMA'));
  });

  it("follows the reader's account language; English stays the spec's words", async () => {
    const english = pdfText(await fetchPdf(''));
    expect(english).toContain('Aligner Treatment Prescription');
    expect(pdfText(await fetchPdf('?locale=en'))).toEqual(english);

    const reader = await createCaseDoctor(t);
    await t.app.db.update(users).set({ locale: 'pl' }).where(eq(users.userId, reader.userId));
    const response = await submitCase(
      t,
      reader.token,
      caseForm(caseFields(reader.clinicId), { maxillaryScan: { data: asciiStl(), name: 'upper.stl' } }),
    );
    const own = await t.as(reader.token, {
      method: 'GET',
      url: `/api/case/${response.json<{ CaseId: number }>().CaseId}/prescription.pdf`,
    });
    expect(own.statusCode).toBe(200);
    const polish = bare(poppler('pdftotext', own.rawPayload, 'pl-account'));
    expect(polish).toContain(bare('Zlecenie leczenia nakładkami ortodontycznymi'));
    expect(polish).toContain(bare('Strona 1 z 1'));
  });

  it('prints an Arabic or Chinese name in any language, shaped, and wraps a long Arabic instruction', async () => {
    // No digits: pdftotext gives a line mixing directions run by run in visual order, so a
    // phrase wrapped across such lines would not read back whole (the PDF is right; see the decision).
    const instruction = 'يرجى الحفاظ على الجسر الثابت وعدم تحريك الأسنان الأمامية. '.repeat(6).trim();
    const fields = caseFields(doctor.clinicId, {
      firstname: 'فاطمة',
      lastname: 'الزهراء',
      specialInstruction: `${instruction}\nملاحظة [مهمة] (عاجل)\n王小明 医生的特别说明`,
    });
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(fields, { maxillaryScan: { data: asciiStl(), name: 'upper.stl' } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const { CaseId } = response.json<{ CaseId: number }>();
    for (const locale of ['en', 'ar'] as const) {
      const printed = await t.as(doctor.token, {
        method: 'GET',
        url: `/api/case/${CaseId}/prescription.pdf?locale=${locale}`,
      });
      expect(printed.statusCode).toBe(200);
      const text = poppler('pdftotext', printed.rawPayload, `names-${locale}`);
      expect(bare(text), locale).toContain(bare('فاطمة الزهراء'));
      expect(bare(text), locale).toContain(bare('王小明 医生的特别说明'));
      // The instruction wraps over several lines, read back in order where the page is right to
      // left (pdftotext orders a line by its page's main direction: in an English page it gives a
      // right-to-left paragraph's line run by run, left to right, though the PDF draws it right).
      if (locale === 'ar') expect(bare(text)).toContain(bare(instruction));
      // Brackets in Arabic are drawn mirrored and read back as written.
      if (locale === 'ar') expect(bare(text)).toContain(bare('ملاحظة [مهمة] (عاجل)'));
      expect(bare(text).split(bare('يرجى الحفاظ على الجسر')).length - 1, locale).toBeGreaterThanOrEqual(5);
    }
  });

  it('is 400 for a language the portal does not speak', async () => {
    for (const locale of ['xx', 'EN', 'pseudo', 'en-XA']) {
      const response = await t.as(doctor.token, { method: 'GET', url: url(`?locale=${locale}`) });
      expect(response.statusCode, locale).toBe(400);
      expect(response.json().message).toContain(localeMessages.unsupported);
    }
  });
});
