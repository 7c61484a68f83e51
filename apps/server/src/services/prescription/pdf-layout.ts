import type { CaseDetailItem } from '@portal/contract';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PdfText } from './pdf-script.ts';

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

const resolve = createRequire(import.meta.url).resolve;
// @embedpdf/fonts-arabic exports only its list of files (dist/index.cjs); the fonts are beside dist/.
const naskh = path.join(path.dirname(resolve('@embedpdf/fonts-arabic')), '../fonts');
const notoSansSc = path.dirname(resolve('@expo-google-fonts/noto-sans-sc/package.json'));

/**
 * The fonts of the scripts DejaVu Sans does not set well (pdf-script.ts): Noto Naskh Arabic,
 * whose every joining form is a glyph of its own (so each maps back to its letter through the
 * PDF's ToUnicode map; Noto Sans Arabic draws dots as marks shared by several letters), and
 * Noto Sans SC, a TrueType font of which pdfkit embeds only the glyphs used.
 */
export const scriptFonts = {
  arabic: {
    regular: path.join(naskh, 'NotoNaskhArabic-Regular.ttf'),
    bold: path.join(naskh, 'NotoNaskhArabic-Bold.ttf'),
  },
  han: {
    regular: path.join(notoSansSc, '400Regular/NotoSansSC_400Regular.ttf'),
    bold: path.join(notoSansSc, '700Bold/NotoSansSC_700Bold.ttf'),
  },
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
export function sectionHeading(text: PdfText, y: number, title: string): number {
  const { doc } = text;
  const top = ensureSpace(doc, y, 44);
  text.text(
    text.upper(title),
    page.margin,
    top,
    { weight: 'bold', size: 10.5, color: colors.band, characterSpacing: 0.6 },
    { lineBreak: false },
  );
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
const labelStyle = { weight: 'bold', size: 8, color: colors.muted } as const;
const valueStyle = { weight: 'regular', size: 8.5, color: colors.ink } as const;

function rowHeight(text: PdfText, item: CaseDetailItem, width: number): number {
  const valueHeight = text.height(printable(item.value), valueStyle, width - labelWidth - 8);
  const labelHeight = text.height(item.label, labelStyle, labelWidth - 6);
  return Math.max(valueHeight, labelHeight) + 5;
}

function drawRow(text: PdfText, item: CaseDetailItem, x: number, y: number, width: number, height: number) {
  text.doc.rect(text.x(x, width), y, width, height).fillColor(colors.zebra).fill();
  text.text(item.label, x + 5, y + 3, labelStyle, { width: labelWidth - 6 });
  text.text(printable(item.value), x + labelWidth, y + 2.5, valueStyle, { width: width - labelWidth - 8 });
}

/** Label and value pairs in two columns, wide ones across both; the y below them. */
export function itemGrid(text: PdfText, y: number, items: CaseDetailItem[]): number {
  const half = (contentWidth - gutter) / 2;
  let top = y;
  for (let index = 0; index < items.length;) {
    const item = items[index]!;
    const pair = item.isWide ? [item] : [item, items[index + 1]].filter((next) => next && !next.isWide);
    const width = pair.length === 1 && item.isWide ? contentWidth : half;
    const height = Math.max(...pair.map((entry) => rowHeight(text, entry!, width)));
    top = ensureSpace(text.doc, top, height);
    pair.forEach((entry, column) => drawRow(text, entry!, page.margin + column * (half + gutter), top, width, height));
    top += height + 2;
    index += pair.length;
  }
  return top;
}
