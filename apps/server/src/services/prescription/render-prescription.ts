import {
  caseFieldItems,
  caseFileTypeLabel,
  caseStatusLabels,
  orNotAvailable,
  type CaseDetailItem,
} from '@portal/contract';
import PDFDocument from 'pdfkit';
import type { Prescription } from './find-prescription.ts';
import { colors, contentWidth, ensureSpace, fonts, itemGrid, page, printable, sectionHeading } from './pdf-layout.ts';
import { drawToothChart } from './tooth-chart.ts';

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 'March 5, 2001' from '2001-03-05' or an ISO timestamp, read as the calendar date it names (UTC). */
function formatDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${months[Number(match[2]) - 1]} ${Number(match[3])}, ${match[1]}` : orNotAvailable(value);
}

const fileSize = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;

function drawHeader(doc: PDFKit.PDFDocument, { caseRow, printedAt }: Prescription): number {
  doc.rect(0, 0, page.width, 72).fillColor(colors.band).fill();
  doc.font(fonts.bold).fontSize(8.5).fillColor('#b9d7e6').text('ALIGNER PORTAL', page.margin, 16, {
    characterSpacing: 1.2,
    lineBreak: false,
  });
  doc.font(fonts.bold).fontSize(18).fillColor('#ffffff').text('Aligner Treatment Prescription', page.margin, 28, {
    lineBreak: false,
  });
  doc
    .font(fonts.regular)
    .fontSize(8)
    .fillColor('#d6e9f2')
    .text(
      `Submitted ${formatDate(caseRow.CreatedAt)}   |   Status: ${caseStatusLabels[caseRow.Status]}   |   Printed ${formatDate(printedAt.toISOString())}`,
      page.margin,
      52,
      { lineBreak: false },
    );
  const boxX = page.width - page.margin - 170;
  doc
    .font(fonts.regular)
    .fontSize(8)
    .fillColor('#b9d7e6')
    .text('TRACKING NO', boxX, 18, { width: 170, align: 'right' });
  doc.font(fonts.bold).fontSize(14).fillColor('#ffffff').text(caseRow.TrackingNo, boxX, 30, {
    width: 170,
    align: 'right',
  });
  return 86;
}

/** Patient, doctor and clinic side by side, each value in full (a long address wraps), the cards as tall as the tallest. */
function drawParties(doc: PDFKit.PDFDocument, y: number, { caseRow, doctor, clinic }: Prescription): number {
  const details = caseFieldItems(caseRow, 'details', formatDate);
  const pick = (label: string) => details.find((item) => item.label === label)?.value ?? 'N/A';
  const cards: { title: string; lines: [string, string][] }[] = [
    {
      title: 'Patient',
      lines: [
        ['Name', pick('Name')],
        ['Date of Birth', pick('Date of Birth')],
        ['Gender', pick('Gender')],
      ],
    },
    {
      title: 'Doctor',
      lines: [
        ['Name', orNotAvailable(doctor.name)],
        ['E-mail', orNotAvailable(doctor.email)],
        ['Phone', orNotAvailable(doctor.mobileNo)],
      ],
    },
    {
      title: 'Clinic',
      lines: [
        ['Name', orNotAvailable(clinic?.name)],
        ['Address', orNotAvailable([clinic?.address, clinic?.city, clinic?.country].filter(Boolean).join(', '))],
        ['Phone', orNotAvailable(clinic?.contactNo)],
      ],
    },
  ];
  const gap = 10;
  const width = (contentWidth - 2 * gap) / 3;
  const valueWidth = width - 16;
  doc.font(fonts.bold).fontSize(8.5);
  // A label 8 pt above its value; a one-line value takes 10.5 pt.
  const lineHeights = cards.map(({ lines }) =>
    lines.map(([, value]) => 8 + Math.max(10.5, doc.heightOfString(printable(value), { width: valueWidth }))),
  );
  const height = Math.max(80, ...lineHeights.map((heights) => 24.5 + heights.reduce((sum, next) => sum + next, 0)));
  cards.forEach(({ title, lines }, index) => {
    const x = page.margin + index * (width + gap);
    doc.roundedRect(x, y, width, height, 4).lineWidth(0.8).strokeColor(colors.rule).stroke();
    doc.rect(x, y, width, 17).fillColor(colors.tint).fill();
    doc
      .font(fonts.bold)
      .fontSize(8.5)
      .fillColor(colors.band)
      .text(title.toUpperCase(), x + 8, y + 5, {
        characterSpacing: 0.5,
        lineBreak: false,
      });
    let lineY = y + 21;
    lines.forEach(([label, value], line) => {
      doc
        .font(fonts.regular)
        .fontSize(7)
        .fillColor(colors.muted)
        .text(label, x + 8, lineY, { lineBreak: false });
      doc
        .font(fonts.bold)
        .fontSize(8.5)
        .fillColor(colors.ink)
        .text(printable(value), x + 8, lineY + 8, { width: valueWidth });
      lineY += lineHeights[index]![line]!;
    });
  });
  return y + height + 10;
}

function drawAttachments(doc: PDFKit.PDFDocument, y: number, { attachments }: Prescription): number {
  if (attachments.length === 0) {
    doc.font(fonts.regular).fontSize(9).fillColor(colors.muted).text('No files attached.', page.margin, y);
    return y + 16;
  }
  const items: CaseDetailItem[] = attachments.map((file) => ({
    label: caseFileTypeLabel(file.FileType),
    value: `${file.FileName} (${fileSize(file.FileSize)})`,
  }));
  return itemGrid(doc, y, items);
}

function drawSignature(doc: PDFKit.PDFDocument, y: number): void {
  const top = ensureSpace(doc, y + 6, 36);
  const lineY = top + 24;
  for (const [label, x] of [
    ["Doctor's signature", page.margin],
    ['Date', page.margin + contentWidth - 160],
  ] as const) {
    const width = label === 'Date' ? 160 : 240;
    doc
      .moveTo(x, lineY)
      .lineTo(x + width, lineY)
      .lineWidth(0.6)
      .strokeColor(colors.muted)
      .stroke();
    doc
      .font(fonts.regular)
      .fontSize(7.5)
      .fillColor(colors.muted)
      .text(label, x, lineY + 4, { lineBreak: false });
  }
}

/** Every page's foot: the case and the page number (drawn last, once the page count is known). */
function drawFooters(doc: PDFKit.PDFDocument, { caseRow }: Prescription): void {
  const { start, count } = doc.bufferedPageRange();
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
    doc
      .font(fonts.regular)
      .fontSize(7.5)
      .fillColor(colors.muted)
      .text(`Prescription ${caseRow.TrackingNo}  -  confidential patient information`, page.margin, y, {
        lineBreak: false,
      })
      .text(`Page ${index - start + 1} of ${count}`, page.margin + contentWidth - 100, y, {
        width: 100,
        align: 'right',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
}

/**
 * The prescription as an A4 PDF (docs/decisions/case-form.md § Printable prescription): patient,
 * doctor and clinic, every field of the case field table as the detail view shows it, the
 * tooth chart and the files. Answered as a stream; nothing is stored.
 */
export function renderPrescription(prescription: Prescription): PDFKit.PDFDocument {
  const { caseRow } = prescription;
  const doc = new PDFDocument({
    size: 'A4',
    margin: page.margin,
    font: fonts.regular,
    bufferPages: true,
    info: { Title: `Prescription ${caseRow.TrackingNo}`, Author: 'Aligner Portal' },
  });
  let y = drawHeader(doc, prescription);
  y = drawParties(doc, y, prescription);
  const details = caseFieldItems(caseRow, 'details', formatDate).filter(
    (item) => !['Name', 'Date of Birth', 'Gender'].includes(item.label),
  );
  y = itemGrid(doc, sectionHeading(doc, y, 'Case Details'), details);
  y = itemGrid(
    doc,
    sectionHeading(doc, y + 6, 'Treatment Instructions'),
    caseFieldItems(caseRow, 'treatment', formatDate),
  );
  y = drawToothChart(doc, sectionHeading(doc, y + 6, 'Tooth Chart'), caseRow);
  y = itemGrid(doc, sectionHeading(doc, y + 4, "Patient's Records"), caseFieldItems(caseRow, 'records', formatDate));
  y = drawAttachments(doc, y, prescription);
  drawSignature(doc, y);
  drawFooters(doc, prescription);
  doc.end();
  return doc;
}
