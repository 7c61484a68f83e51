import { caseFileMessages } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfContentScanner } from '../src/services/cases/content-checks.ts';
import {
  caseFields,
  caseForm,
  createCaseDoctor,
  snapshot,
  submitCase,
  type UploadFile,
} from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * Files are checked by what they hold, not their first bytes alone (docs/quality/uploads.md § Files checked by what they hold):
 * photos must decode, PDFs must carry no scripts, automatic actions or attached files.
 */
type Doctor = Awaited<ReturnType<typeof createCaseDoctor>>;

let t: TestApp;
let doctor: Doctor;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Content', lastname: 'Checker' });
}, scaled(60_000));
afterAll(() => t?.close());

/** A PDF of these objects, with a cross-reference table good enough for a reader. */
function pdfOf(objects: (string | Buffer)[], catalogue = '<< /Type /Catalog /Pages 2 0 R >>'): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const all = [catalogue, '<< /Type /Pages /Kids [] /Count 0 >>', ...objects];
  all.forEach((body, index) => {
    parts.push(Buffer.from(`${index + 1} 0 obj\n`), Buffer.from(body as never), Buffer.from('\nendobj\n'));
  });
  parts.push(Buffer.from(`trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A stream object holding `data` (binary allowed) under `dictionary`. */
const streamObject = (dictionary: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);

/** An object stream (PDF 1.5) holding one object, deflated: a reader sees the names only once inflated. */
const objectStream = (object: string) =>
  streamObject('/Type /ObjStm /N 1 /First 6 /Filter /FlateDecode', deflateSync(Buffer.from(`9 0 \n${object}`)));

/** A PDF made by pdfkit (the portal's own prescription library): text, a compressed page and a PNG. */
async function pdfkitPdf(build: (doc: PDFKit.PDFDocument) => void = () => {}): Promise<Buffer> {
  const doc = new PDFDocument({ compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  doc.text('Treatment report for the lab.');
  doc.image(await makeImage('png', 200), { width: 100 });
  build(doc);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The scanner's verdict with the bytes fed in chunks of `size` (every name split at every place). */
function verdictInChunks(pdf: Buffer, size: number) {
  const scanner = new PdfContentScanner();
  for (let at = 0; at < pdf.length; at += size) scanner.feed(pdf.subarray(at, at + size));
  return scanner.result;
}

const samples = {
  javaScript: pdfOf(['<< /S /JavaScript /JS (app.alert\\(1\\)) >>']),
  openActionDictionary: pdfOf([], '<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /Launch /F (calc.exe) >> >>'),
  openActionReference: pdfOf(['<< /S /GoTo >>'], '<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>'),
  additionalActions: pdfOf(['<< /Type /Page /Parent 2 0 R /AA << /O 4 0 R >> >>']),
  hexEscapedName: pdfOf(['<< /S /Java#53cript /J#53 (x) >>']),
  embeddedFile: pdfOf(['<< /Type /EmbeddedFile /Length 0 >>']),
  hiddenInObjectStream: pdfOf([objectStream('<< /S /JavaScript /JS (app.alert\\(1\\)) >>')]),
};

describe('PdfContentScanner', () => {
  it('finds scripts, automatic actions and attached files, hex-escaped or inside object streams, wherever the chunks split', () => {
    for (const [label, pdf] of Object.entries(samples)) {
      for (const size of [1, 2, 3, 7, 64, pdf.length]) {
        expect(verdictInChunks(pdf, size), `${label} in chunks of ${size}`).toMatchObject({
          isClean: false,
          reason: 'active',
        });
      }
    }
  });

  it('passes an opening view (/OpenAction [page /Fit]), names inside page and image data, and a clean object stream', async () => {
    const noise = Buffer.concat([randomBytes(4096), Buffer.from(' /JS /AA /Launch '), randomBytes(4096)]);
    const clean = [
      pdfOf([], '<< /Type /Catalog /Pages 2 0 R /OpenAction [3 0 R /Fit] >>'),
      pdfOf([streamObject('/Subtype /Image', noise)]),
      pdfOf([objectStream('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')]),
      await pdfkitPdf(),
    ];
    for (const [index, pdf] of clean.entries()) {
      for (const size of [1, 5, 64, 65_536]) {
        expect(verdictInChunks(pdf, size), `clean PDF ${index} in chunks of ${size}`).toEqual({ isClean: true });
      }
    }
  });

  it('calls an object stream it cannot inflate unreadable', () => {
    const broken = pdfOf([streamObject('/Type /ObjStm /N 1 /First 6 /Filter /FlateDecode', randomBytes(200))]);
    expect(verdictInChunks(broken, 13)).toEqual({ isClean: false, reason: 'unreadable' });
  });
});

/** A file with a JPEG's first bytes and a web page after them: the finding's example. */
const jpegThenHtml = () =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script></html>')]);
/** A real PNG cut in half: its header reads, its pixels do not. */
const truncatedPng = async () => {
  const png = await makeImage('png', 300);
  return png.subarray(0, Math.floor(png.length / 2));
};

describe('POST /case/add: photos must decode', () => {
  it('refuses a photo that only starts like a JPEG, or a cut PNG, with a clear message, and stores nothing', async () => {
    for (const [field, file] of [
      ['frontSmiling', { data: jpegThenHtml(), name: 'smile.jpg' }],
      ['opv', { data: await truncatedPng(), name: 'x-ray.png' }],
      ['otherFiles', { data: jpegThenHtml(), name: 'extra.jpeg' }],
    ] as const) {
      const before = await snapshot(t);
      const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId), { [field]: file }));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toEqual({ [field]: caseFileMessages.imageUnreadable });
      expect(await snapshot(t)).toEqual(before);
    }
  });

  it('still takes real JPEG and PNG photos', async () => {
    const files = {
      frontSmiling: { data: await makeImage('jpeg', 80), name: 'smile.jpg' },
      opv: { data: await makeImage('png', 80), name: 'x-ray.png' },
    };
    const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId), files));
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('POST /api/case/{caseId}/messages: pictures must decode, PDFs must be inert', () => {
  let caseId: number;
  beforeAll(async () => {
    const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    caseId = response.json<{ CaseId: number }>().CaseId;
  });
  const post = (files: UploadFile[]) =>
    t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: caseForm({ text: 'see attached' }, { files }),
    });
  const messageCount = async () =>
    (
      (await t.app.db.execute(
        sql`select count(*)::int as n from case_messages where case_id = ${caseId}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n;
  async function storedMessageFiles(): Promise<number> {
    const folder = path.join(t.dataDir, 'files', 'messages');
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).length;
  }

  it('refuses a fake picture, a PDF with a script, an automatic action or an attached file, leaving nothing', async () => {
    const good = { data: await makeImage('png'), name: 'good.png' };
    // A large PDF: the script comes after 3 MB of image data, past many reads of the body.
    const large = pdfOf([
      streamObject('/Subtype /Image', randomBytes(3 * 1024 * 1024)),
      '<< /S /JavaScript /JS (x) >>',
    ]);
    const withAttachment = await pdfkitPdf((doc) => doc.file(Buffer.from('MZ not a program'), { name: 'run.exe' }));
    const refusals: [UploadFile, string][] = [
      [{ data: jpegThenHtml(), name: 'bite.jpg' }, caseFileMessages.imageUnreadable],
      [{ data: samples.javaScript, name: 'report.pdf' }, caseFileMessages.pdfActiveContent],
      [{ data: samples.openActionDictionary, name: 'report.pdf' }, caseFileMessages.pdfActiveContent],
      [{ data: samples.hiddenInObjectStream, name: 'report.pdf' }, caseFileMessages.pdfActiveContent],
      [{ data: large, name: 'large.pdf' }, caseFileMessages.pdfActiveContent],
      [{ data: withAttachment, name: 'attached.pdf' }, caseFileMessages.pdfActiveContent],
    ];
    const filesBefore = await storedMessageFiles();
    for (const [file, reason] of refusals) {
      const answer = await post([good, file]);
      expect(answer.statusCode, file.name).toBe(400);
      expect(answer.json<{ message: string }>().message).toBe(`${file.name}: ${reason}`);
    }
    expect(await messageCount()).toBe(0);
    expect(await storedMessageFiles()).toBe(filesBefore);
  });

  it('takes a PDF made by an ordinary writer (pdfkit, compressed, with an image)', async () => {
    const answer = await post([{ data: await pdfkitPdf(), name: 'report.pdf' }]);
    expect(answer.statusCode, answer.body).toBe(200);
  });
});
