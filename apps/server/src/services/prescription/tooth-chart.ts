import {
  caseNumberingSystem,
  caseFields,
  fieldsOfKind,
  toothChartRows,
  toothLabel,
  toothPosition,
  type CaseRow,
} from '@portal/contract';
import { colors, contentWidth, ensureSpace, fonts, page } from './pdf-layout.ts';

const toothLists = fieldsOfKind('teeth') as (ReturnType<typeof fieldsOfKind<'teeth'>>[number] & {
  key: ToothListKey;
})[];
type ToothListKey = 'moveTooth' | 'noElastic' | 'noAttachment' | 'extractTooth';

/** Each tooth list's colour; extraction is also drawn as a cross over the tooth. */
const markColors: Record<ToothListKey, string> = {
  moveTooth: '#1c7ed6',
  noElastic: '#f08c00',
  noAttachment: '#7048e8',
  extractTooth: '#e03131',
};

const cell = 28;
const tooth = { width: 22, height: 26 };
const midlineGap = 10;
const chartWidth = 16 * cell + midlineGap;

/** The teeth a case lists under one field, in Universal numbers. */
const teethOf = (caseRow: CaseRow, key: ToothListKey) =>
  new Set(
    String(caseRow[caseFields[key].read])
      .split(',')
      .map((part) => Number(part.trim()))
      .filter((number) => Number.isInteger(number) && number >= 1 && number <= 32),
  );

/** Palmer's teeth are numbered 1-8 from the midline in each quadrant; the chart's cross lines are its grid. */
const chartLabel = (universal: number, system: ReturnType<typeof caseNumberingSystem>) =>
  system === 'Palmer' ? String(toothPosition(universal).position) : toothLabel(universal, system);

function drawTooth(doc: PDFKit.PDFDocument, x: number, y: number, marked: ToothListKey[]) {
  const isExtracted = marked.includes('extractTooth');
  doc
    .roundedRect(x, y, tooth.width, tooth.height, 5)
    .lineWidth(0.9)
    .fillAndStroke(marked.length > 0 ? colors.tint : '#ffffff', marked.length > 0 ? colors.band : colors.rule);
  // One dot per list, always in the same corner: move, no elastic / no attachment, extract.
  toothLists.forEach(({ key }, slot) => {
    if (!marked.includes(key)) return;
    const dotX = x + 6.5 + (slot % 2) * 9;
    const dotY = y + 8 + Math.floor(slot / 2) * 10;
    doc.circle(dotX, dotY, 3).fillColor(markColors[key]).fill();
  });
  if (isExtracted) {
    doc
      .moveTo(x + 2, y + 2)
      .lineTo(x + tooth.width - 2, y + tooth.height - 2)
      .moveTo(x + tooth.width - 2, y + 2)
      .lineTo(x + 2, y + tooth.height - 2)
      .lineWidth(1.4)
      .strokeColor(markColors.extractTooth)
      .stroke();
  }
}

/** The 32 teeth in two arches, as the dentist faces the patient, labelled in the case's system; the y below it. */
export function drawToothChart(doc: PDFKit.PDFDocument, y: number, caseRow: CaseRow): number {
  const system = caseNumberingSystem(caseRow[caseFields.toothNumbering.read]);
  const marks = toothLists.map(({ key }) => ({ key, teeth: teethOf(caseRow, key) }));
  const top = ensureSpace(doc, y, 130);
  const left = page.margin + (contentWidth - chartWidth) / 2;
  const xOf = (index: number) => left + index * cell + (index >= 8 ? midlineGap : 0) + (cell - tooth.width) / 2;
  const upperY = top + 24;
  const lowerY = upperY + tooth.height + 12;

  doc.font(fonts.bold).fontSize(8).fillColor(colors.muted);
  doc.text('UPPER', left - 40, upperY + 9, { width: 34, align: 'right', lineBreak: false });
  doc.text('LOWER', left - 40, lowerY + 9, { width: 34, align: 'right', lineBreak: false });
  doc.text("Patient's right", left, top, { lineBreak: false });
  doc.text("Patient's left", left + chartWidth - 80, top, { width: 80, align: 'right', lineBreak: false });

  for (const [row, teeth] of [
    ['upper', toothChartRows.upper],
    ['lower', toothChartRows.lower],
  ] as const) {
    const toothY = row === 'upper' ? upperY : lowerY;
    teeth.forEach((universal, index) => {
      const x = xOf(index);
      const marked = marks.filter(({ teeth: listed }) => listed.has(universal)).map(({ key }) => key);
      drawTooth(doc, x, toothY, marked);
      doc
        .font(marked.length > 0 ? fonts.bold : fonts.regular)
        .fontSize(8)
        .fillColor(marked.length > 0 ? colors.ink : colors.muted)
        .text(chartLabel(universal, system), x - 4, row === 'upper' ? toothY - 10 : toothY + tooth.height + 3, {
          width: tooth.width + 8,
          align: 'center',
          lineBreak: false,
        });
    });
  }
  // The midline and the occlusal plane: Palmer's grid, and a guide for the other systems.
  const midX = left + 8 * cell + midlineGap / 2;
  doc
    .moveTo(midX, upperY - 12)
    .lineTo(midX, lowerY + tooth.height + 12)
    .moveTo(left - 4, lowerY - 6)
    .lineTo(left + chartWidth + 4, lowerY - 6)
    .lineWidth(0.6)
    .strokeColor(colors.muted)
    .stroke();

  let legendX = page.margin;
  const legendY = lowerY + tooth.height + 22;
  doc.font(fonts.regular).fontSize(8).fillColor(colors.ink);
  doc.text(`Numbering: ${system}`, legendX, legendY, { lineBreak: false });
  legendX += 100;
  for (const { key, label } of toothLists) {
    doc
      .circle(legendX + 3, legendY + 3.5, 3)
      .fillColor(markColors[key])
      .fill();
    doc.fillColor(colors.ink).text(label, legendX + 10, legendY, { lineBreak: false });
    legendX += 20 + doc.widthOfString(label);
  }
  doc
    .moveTo(legendX, legendY)
    .lineTo(legendX + 7, legendY + 7)
    .moveTo(legendX + 7, legendY)
    .lineTo(legendX, legendY + 7)
    .lineWidth(1.2)
    .strokeColor(markColors.extractTooth)
    .stroke();
  doc.fillColor(colors.ink).text('crossed out: extract', legendX + 11, legendY, { lineBreak: false });
  return legendY + 18;
}
