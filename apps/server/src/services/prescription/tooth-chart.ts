import {
  caseNumberingSystem,
  caseFields,
  fieldsOfKind,
  toothChartRows,
  toothLabel,
  toothPosition,
  type CaseRow,
} from '@portal/contract';
import { colors, contentWidth, ensureSpace, page } from './pdf-layout.ts';
import type { PdfMessageKey } from './pdf-messages.ts';
import type { Pen } from './render-prescription.ts';

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

/**
 * The 32 teeth in two arches, as the dentist faces the patient, labelled in the reader's notation
 * (else the case's numbering);
 * the y below it. The chart is a picture of the mouth: a right-to-left document does not mirror
 * it, and its words are set where they stand in every language.
 */
export function drawToothChart({ text, words }: Pen, y: number, caseRow: CaseRow): number {
  const { doc } = text;
  const system = words.notation ?? caseNumberingSystem(caseRow[caseFields.toothNumbering.read]);
  const marks = toothLists.map(({ key }) => ({ key, teeth: teethOf(caseRow, key) }));
  const top = ensureSpace(doc, y, 130);
  const left = page.margin + (contentWidth - chartWidth) / 2;
  const xOf = (index: number) => left + index * cell + (index >= 8 ? midlineGap : 0) + (cell - tooth.width) / 2;
  const upperY = top + 24;
  const lowerY = upperY + tooth.height + 12;

  // One colour set for the four words around the chart.
  const side = { weight: 'bold', size: 8 } as const;
  const fixed = { fixed: true } as const;
  text.text(
    words.t('chart.upper'),
    left - 40,
    upperY + 9,
    { ...side, color: colors.muted },
    {
      ...fixed,
      width: 34,
      align: 'right',
      lineBreak: false,
    },
  );
  text.text(words.t('chart.lower'), left - 40, lowerY + 9, side, {
    ...fixed,
    width: 34,
    align: 'right',
    lineBreak: false,
  });
  text.text(words.t('chart.patientRight'), left, top, side, { ...fixed, lineBreak: false });
  text.text(words.t('chart.patientLeft'), left + chartWidth - 80, top, side, {
    ...fixed,
    width: 80,
    align: 'right',
    lineBreak: false,
  });

  for (const [row, teeth] of [
    ['upper', toothChartRows.upper],
    ['lower', toothChartRows.lower],
  ] as const) {
    const toothY = row === 'upper' ? upperY : lowerY;
    teeth.forEach((universal, index) => {
      const x = xOf(index);
      const marked = marks.filter(({ teeth: listed }) => listed.has(universal)).map(({ key }) => key);
      drawTooth(doc, x, toothY, marked);
      text.text(
        chartLabel(universal, system),
        x - 4,
        row === 'upper' ? toothY - 10 : toothY + tooth.height + 3,
        {
          weight: marked.length > 0 ? 'bold' : 'regular',
          size: 8,
          color: marked.length > 0 ? colors.ink : colors.muted,
        },
        { ...fixed, width: tooth.width + 8, align: 'center', lineBreak: false },
      );
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
  const legend = { weight: 'regular', size: 8, color: colors.ink } as const;
  const numbering = words.t('chart.numbering', {
    system: system === 'Universal' ? words.t('option.universal') : system,
  });
  text.text(numbering, legendX, legendY, legend, { ...fixed, lineBreak: false });
  // 100 pt as before, more for a language's longer words.
  legendX += Math.max(100, text.width(numbering, legend) + 10);
  for (const { key, label } of toothLists) {
    const shown = words.locale === 'en' ? label : words.t(`field.${key}` as PdfMessageKey);
    doc
      .circle(legendX + 3, legendY + 3.5, 3)
      .fillColor(markColors[key])
      .fill();
    text.text(shown, legendX + 10, legendY, legend, { ...fixed, lineBreak: false });
    legendX += 20 + text.width(shown, legend);
  }
  doc
    .moveTo(legendX, legendY)
    .lineTo(legendX + 7, legendY + 7)
    .moveTo(legendX + 7, legendY)
    .lineTo(legendX, legendY + 7)
    .lineWidth(1.2)
    .strokeColor(markColors.extractTooth)
    .stroke();
  text.text(words.t('chart.extract'), legendX + 11, legendY, legend, { ...fixed, lineBreak: false });
  return legendY + 18;
}
