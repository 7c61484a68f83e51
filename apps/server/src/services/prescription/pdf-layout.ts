import type { CaseDetailItem } from '@portal/contract';
import { createRequire } from 'node:module';
import path from 'node:path';

export const colors = {
  ink: '#1f2933',
  muted: '#5f6b7a',
  rule: '#c5d0da',
  band: '#0b4f6c',
  tint: '#eef4f8',
  zebra: '#f7f9fb',
};

export const page = { width: 595.28, height: 841.89, margin: 40, footer: 36 };
export const contentWidth = page.width - 2 * page.margin;

const fontDirectory = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);

/**
 * DejaVu Sans instead of the standard PDF fonts, which know only Windows-1252: names such as
 * Łukasz, Ğ, Cyrillic, Greek and Palmer's corner symbols (8┘) print as written. Fonts are
 * named by their files, so pdfkit loads each once and embeds only the glyphs a document uses.
 */
export const fonts = {
  regular: path.join(fontDirectory, 'DejaVuSans.ttf'),
  bold: path.join(fontDirectory, 'DejaVuSans-Bold.ttf'),
} as const;

/**
 * Text as pdfkit should set it: every kind of line break a real one (a form sends CRLF, and
 * pdfkit printed each CR as an empty box), tabs as spaces.
 */
export const printable = (text: string) => text.replace(/\r\n?|[\u2028\u2029\v\f]/g, '\n').replace(/\t/g, ' ');

/** Moves to a new page when `height` no longer fits above the footer; the y to draw at. */
export function ensureSpace(doc: PDFKit.PDFDocument, y: number, height: number): number {
  if (y + height <= page.height - page.margin - page.footer) return y;
  doc.addPage();
  return page.margin;
}

/** A section title with a rule under it; the y below it. */
export function sectionHeading(doc: PDFKit.PDFDocument, y: number, title: string): number {
  const top = ensureSpace(doc, y, 44);
  doc.font(fonts.bold).fontSize(10.5).fillColor(colors.band).text(title.toUpperCase(), page.margin, top, {
    characterSpacing: 0.6,
    lineBreak: false,
  });
  doc
    .moveTo(page.margin, top + 15)
    .lineTo(page.margin + contentWidth, top + 15)
    .lineWidth(0.8)
    .strokeColor(colors.band)
    .stroke();
  return top + 20;
}

const labelWidth = 118;
const gutter = 14;

function rowHeight(doc: PDFKit.PDFDocument, item: CaseDetailItem, width: number): number {
  doc.font(fonts.regular).fontSize(8.5);
  const valueHeight = doc.heightOfString(printable(item.value), { width: width - labelWidth - 8 });
  doc.font(fonts.bold).fontSize(8);
  const labelHeight = doc.heightOfString(item.label, { width: labelWidth - 6 });
  return Math.max(valueHeight, labelHeight) + 5;
}

function drawRow(doc: PDFKit.PDFDocument, item: CaseDetailItem, x: number, y: number, width: number, height: number) {
  doc.rect(x, y, width, height).fillColor(colors.zebra).fill();
  doc
    .font(fonts.bold)
    .fontSize(8)
    .fillColor(colors.muted)
    .text(item.label, x + 5, y + 3, { width: labelWidth - 6 });
  doc
    .font(fonts.regular)
    .fontSize(8.5)
    .fillColor(colors.ink)
    .text(printable(item.value), x + labelWidth, y + 2.5, { width: width - labelWidth - 8 });
}

/** Label and value pairs in two columns, wide ones across both; the y below them. */
export function itemGrid(doc: PDFKit.PDFDocument, y: number, items: CaseDetailItem[]): number {
  const half = (contentWidth - gutter) / 2;
  let top = y;
  for (let index = 0; index < items.length;) {
    const item = items[index]!;
    const pair = item.isWide ? [item] : [item, items[index + 1]].filter((next) => next && !next.isWide);
    const width = pair.length === 1 && item.isWide ? contentWidth : half;
    const height = Math.max(...pair.map((entry) => rowHeight(doc, entry!, width)));
    top = ensureSpace(doc, top, height);
    pair.forEach((entry, column) => drawRow(doc, entry!, page.margin + column * (half + gutter), top, width, height));
    top += height + 2;
    index += pair.length;
  }
  return top;
}
