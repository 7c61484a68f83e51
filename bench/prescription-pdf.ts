/**
 * The prescription PDF in each language (docs/decisions/languages.md § The prescription PDF in
 * every script): the time to render one (from renderPrescription to the last byte, median of
 * the runs after a first that loads the fonts) and its size, for a filled-in case with two
 * files. No database: the prescription is made here as findPrescription would answer it.
 *   node --import tsx bench/prescription-pdf.ts   BENCH_PDF_RUNS=10 per language
 */
import { caseFieldList, supportedLocales, type Locale } from '@portal/contract';
import type { Prescription } from '../apps/server/src/services/prescription/find-prescription.ts';
import { renderPrescription } from '../apps/server/src/services/prescription/render-prescription.ts';
import { fixed, median, printTable } from './lib/measure.ts';

const runs = Number(process.env.BENCH_PDF_RUNS ?? 10);

function samplePrescription(): Prescription {
  const caseRow: Record<string, unknown> = {};
  for (const field of caseFieldList) caseRow[field.read] = ('options' in field && field.options[0]) || 'N/A';
  Object.assign(caseRow, {
    FirstName: 'Zoë Ğül',
    LastName: 'Łukasz Żółć',
    DOB: '2001-03-05',
    CreatedAt: '2026-12-01T10:00:00Z',
    Status: 'inprogress',
    TrackingNo: 'AP-000123',
    ToothNumberingSystem: 'FDI',
    MoveTooth: '3,14',
    ExtractTooth: '30',
    ChiefComplaint: 'Upper crowding\nLower spacing',
    SpecialInstruction: 'Keep the bridge on 46',
    doctorname: 'Grace Hopper',
  });
  return {
    caseRow: caseRow as Prescription['caseRow'],
    doctor: { name: 'Grace Hopper', email: 'grace@example.com', mobileNo: '+1 555 0100' },
    clinic: { name: 'Smile Clinic', address: '1 Main Street', city: 'Paris', country: 'France', contactNo: '123456' },
    attachments: [
      { FileName: 'upper.stl', FileType: 'MaxillaryScan', FileSize: 1_234_567 },
      { FileName: 'x-ray.png', FileType: 'OPV', FileSize: 20_000 },
    ] as Prescription['attachments'],
    printedAt: new Date('2026-12-05T12:00:00Z'),
  };
}

function render(prescription: Prescription, locale: Locale): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const doc = renderPrescription(prescription, locale);
  let bytes = 0;
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => (bytes += chunk.length));
    doc.on('end', () => resolve({ ms: performance.now() - started, bytes }));
    doc.on('error', reject);
  });
}

export async function runPrescriptionPdfBenchmark() {
  const prescription = samplePrescription();
  const rows: Record<string, string | number>[] = [];
  for (const locale of supportedLocales) {
    const first = await render(prescription, locale);
    const times: number[] = [];
    let bytes = first.bytes;
    for (let run = 0; run < runs; run++) {
      const next = await render(prescription, locale);
      times.push(next.ms);
      bytes = next.bytes;
    }
    rows.push({
      locale,
      'first (ms)': fixed(first.ms, 0),
      'render (ms, median)': fixed(median(times), 0),
      'size (KB)': fixed(bytes / 1000, 1),
    });
  }
  printTable(`Prescription PDF per language (${runs} runs each)`, rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await runPrescriptionPdfBenchmark();
