import { defaultLocale, type CaseDetailItem, type Locale, type NumberingSystem } from '@portal/contract';
import PDFDocument from 'pdfkit';
import type { Prescription } from './find-prescription.ts';
import { colors, contentWidth, ensureSpace, fonts, itemGrid, page, printable, sectionHeading } from './pdf-layout.ts';
import { PdfText } from './pdf-script.ts';
import { pdfWords, type PdfWords } from './pdf-words.ts';
import { drawToothChart } from './tooth-chart.ts';

/** The portal's name, a brand: the same in every language. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a name, not a word to translate
const brand = 'Aligner Portal';

/** What each part of the page draws with: the document's text in its language, and that language's words. */
export interface Pen {
  text: PdfText;
  words: PdfWords;
}

function drawHeader({ text, words }: Pen, { caseRow, printedAt }: Prescription): number {
  const { doc } = text;
  doc.rect(0, 0, page.width, 72).fillColor(colors.band).fill();
  text.text(
    brand.toUpperCase(),
    page.margin,
    16,
    { weight: 'bold', size: 8.5, color: '#b9d7e6', characterSpacing: 1.2 },
    { lineBreak: false },
  );
  text.text(
    words.t('prescription.title'),
    page.margin,
    28,
    { weight: 'bold', size: 18, color: '#ffffff' },
    { lineBreak: false },
  );
  text.text(
    [
      words.t('prescription.submitted', { date: words.formatDate(caseRow.CreatedAt) }),
      words.t('prescription.status', { status: words.status(caseRow.Status) }),
      words.t('prescription.printed', { date: words.formatDate(printedAt.toISOString()) }),
    ].join('   |   '),
    page.margin,
    52,
    { weight: 'regular', size: 8, color: '#d6e9f2' },
    { lineBreak: false },
  );
  const boxX = page.width - page.margin - 170;
  text.text(
    words.t('prescription.trackingNo'),
    boxX,
    18,
    { weight: 'regular', size: 8, color: '#b9d7e6' },
    { width: 170, align: 'right' },
  );
  text.text(
    caseRow.TrackingNo,
    boxX,
    30,
    { weight: 'bold', size: 14, color: '#ffffff' },
    { width: 170, align: 'right' },
  );
  return 86;
}

/** Patient, doctor and clinic side by side, each value in full (a long address wraps), the cards as tall as the tallest. */
function drawParties({ text, words }: Pen, y: number, { caseRow, doctor, clinic }: Prescription): number {
  const { doc } = text;
  const details = words.items(caseRow, 'details');
  const pick = (key: string) => details.find((item) => item.key === key)?.value ?? words.t('notAvailable');
  const given = (value: string | null | undefined) => (value?.trim() ? value : words.t('notAvailable'));
  const cards: { title: string; lines: [string, string][] }[] = [
    {
      title: words.t('party.patient'),
      lines: [
        [words.t('party.name'), pick('firstName')],
        [words.t('party.dateOfBirth'), pick('dob')],
        [words.t('party.gender'), pick('gender')],
      ],
    },
    {
      title: words.t('party.doctor'),
      lines: [
        [words.t('party.name'), given(doctor.name)],
        [words.t('party.email'), given(doctor.email)],
        [words.t('party.phone'), given(doctor.mobileNo)],
      ],
    },
    {
      title: words.t('party.clinic'),
      lines: [
        [words.t('party.name'), given(clinic?.name)],
        [words.t('party.address'), given([clinic?.address, clinic?.city, clinic?.country].filter(Boolean).join(', '))],
        [words.t('party.phone'), given(clinic?.contactNo)],
      ],
    },
  ];
  const gap = 10;
  const width = (contentWidth - 2 * gap) / 3;
  const valueWidth = width - 16;
  const valueStyle = { weight: 'bold', size: 8.5, color: colors.ink } as const;
  // A label 8 pt above its value; a one-line value takes 10.5 pt.
  const lineHeights = cards.map(({ lines }) =>
    lines.map(([, value]) => 8 + Math.max(10.5, text.height(printable(value), valueStyle, valueWidth))),
  );
  const height = Math.max(80, ...lineHeights.map((heights) => 24.5 + heights.reduce((sum, next) => sum + next, 0)));
  cards.forEach(({ title, lines }, index) => {
    const x = page.margin + index * (width + gap);
    doc.roundedRect(text.x(x, width), y, width, height, 4).lineWidth(0.8).strokeColor(colors.rule).stroke();
    doc.rect(text.x(x, width), y, width, 17).fillColor(colors.tint).fill();
    text.text(
      text.upper(title),
      x + 8,
      y + 5,
      { weight: 'bold', size: 8.5, color: colors.band, characterSpacing: 0.5 },
      { lineBreak: false },
    );
    let lineY = y + 21;
    lines.forEach(([label, value], line) => {
      text.text(label, x + 8, lineY, { weight: 'regular', size: 7, color: colors.muted }, { lineBreak: false });
      text.text(printable(value), x + 8, lineY + 8, valueStyle, { width: valueWidth });
      lineY += lineHeights[index]![line]!;
    });
  });
  return y + height + 10;
}

function drawAttachments({ text, words }: Pen, y: number, { attachments }: Prescription): number {
  if (attachments.length === 0) {
    text.text(words.t('attachments.none'), page.margin, y, { weight: 'regular', size: 9, color: colors.muted });
    return y + 16;
  }
  const items: CaseDetailItem[] = attachments.map((file) => ({
    label: words.fileType(file.FileType),
    value: `${file.FileName} (${words.fileSize(file.FileSize)})`,
  }));
  return itemGrid(text, y, items);
}

function drawSignature({ text, words }: Pen, y: number): void {
  const { doc } = text;
  const top = ensureSpace(doc, y + 6, 36);
  const lineY = top + 24;
  for (const [label, x, width] of [
    [words.t('signature.doctor'), page.margin, 240],
    [words.t('signature.date'), page.margin + contentWidth - 160, 160],
  ] as const) {
    doc
      .moveTo(text.x(x, width), lineY)
      .lineTo(text.x(x, width) + width, lineY)
      .lineWidth(0.6)
      .strokeColor(colors.muted)
      .stroke();
    text.text(label, x, lineY + 4, { weight: 'regular', size: 7.5, color: colors.muted }, { lineBreak: false });
  }
}

/** Every page's foot: the case and the page number (drawn last, once the page count is known). */
function drawFooters({ text, words }: Pen, { caseRow }: Prescription): void {
  const { doc } = text;
  const { start, count } = doc.bufferedPageRange();
  const style = { weight: 'regular', size: 7.5, color: colors.muted } as const;
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = page.height - page.margin + 8;
    doc
      .moveTo(page.margin, y - 6)
      .lineTo(page.margin + contentWidth, y - 6)
      .lineWidth(0.5)
      .strokeColor(colors.rule)
      .stroke();
    text.text(words.t('footer.confidential', { trackingNo: caseRow.TrackingNo }), page.margin, y, style, {
      lineBreak: false,
    });
    text.text(
      words.t('footer.page', { page: index - start + 1, count }),
      page.margin + contentWidth - 100,
      y,
      { weight: style.weight, size: style.size },
      { width: 100, align: 'right', lineBreak: false },
    );
    doc.page.margins.bottom = bottom;
  }
}

/**
 * The prescription as an A4 PDF (docs/decisions/case-form.md § Printable prescription): patient,
 * doctor and clinic, every field of the case field table as the detail view shows it, the
 * tooth chart and the files, in the reader's language (docs/decisions/languages.md § The
 * prescription PDF in every script) and tooth notation. Answered as a stream; nothing is stored.
 */
export function renderPrescription(
  prescription: Prescription,
  locale: Locale = defaultLocale,
  notation?: NumberingSystem,
): PDFKit.PDFDocument {
  const { caseRow } = prescription;
  const words = pdfWords(locale, notation);
  const doc = new PDFDocument({
    size: 'A4',
    margin: page.margin,
    font: fonts.regular,
    bufferPages: true,
    // English as before (no /Lang); another language names itself for readers and screen readers.
    ...(locale === defaultLocale ? {} : { lang: locale }),
    info: {
      Title: words.t('prescription.documentTitle', { trackingNo: caseRow.TrackingNo }),
      Author: brand,
    },
  });
  const pen: Pen = { text: new PdfText(doc, locale), words };
  const { text } = pen;
  let y = drawHeader(pen, prescription);
  y = drawParties(pen, y, prescription);
  const details = words.items(caseRow, 'details').filter((item) => !['firstName', 'dob', 'gender'].includes(item.key));
  y = itemGrid(text, sectionHeading(text, y, words.t('section.caseDetails')), details);
  y = itemGrid(text, sectionHeading(text, y + 6, words.t('section.treatment')), words.items(caseRow, 'treatment'));
  y = drawToothChart(pen, sectionHeading(text, y + 6, words.t('section.toothChart')), caseRow);
  y = itemGrid(text, sectionHeading(text, y + 4, words.t('section.records')), words.items(caseRow, 'records'));
  y = drawAttachments(pen, y, prescription);
  drawSignature(pen, y);
  drawFooters(pen, prescription);
  text.finish();
  doc.end();
  return doc;
}
