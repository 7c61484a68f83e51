import { z } from 'zod';
import { fdiToUniversal, toothLabel, type NumberingSystem } from './tooth-numbering.ts';

/**
 * A plan version checked against its case's prescription and the lab's per-stage limits
 * (docs/decisions/plans.md § Plans checked against the prescription). One pure function, run by
 * the server on every version it lists and approves (with the measured movements) and by the
 * lab's upload form before sending (from the summary alone: IPR and attachments).
 */

export const planFindingKinds = ['doNotMove', 'extraction', 'ipr', 'attachment', 'stepLimit'] as const;
export type PlanFindingKind = (typeof planFindingKinds)[number];

export const planFinding = z.object({
  kind: z.enum(planFindingKinds),
  teeth: z.array(z.number().int().min(1).max(32)).meta({ description: 'Universal numbers, 1-32' }),
  message: z
    .string()
    .meta({ description: "What breaks the prescription or the limits, teeth in the case's numbering" }),
});
export type PlanFinding = z.infer<typeof planFinding>;

/**
 * How far the check went: `pending` while an arch's movements are being measured (the doctor
 * cannot approve yet), `partial` when an arch's movements could not be measured (only the
 * summary was checked for it: `note` says why), `complete` otherwise.
 */
export const planFindingsCheck = z.object({
  state: z.enum(['pending', 'partial', 'complete']),
  note: z.string().nullable(),
});
export type PlanFindingsCheck = z.infer<typeof planFindingsCheck>;

/** Beyond this from stage 0, at any stage, a tooth the prescription says not to move has moved. */
export const doNotMoveTolerance = { mm: 0.1, deg: 1 };

/** The IPR picks of the case form (caseOptions.ipr), as the check reads them. */
type IprRule = 'none' | 'initial' | 'accessible';
const iprRules: Record<string, IprRule> = {
  'no ipr': 'none',
  'initial stage ipr': 'initial',
  'as contacts become accessible': 'accessible',
};

/** The case's prescription as stored: tooth lists in Universal numbers ('3, 14', '' or 'N/A'). */
export interface PlanPrescription {
  moveTooth: string | null;
  extractTooth: string | null;
  noAttachment: string | null;
  /** The IPR Prescription pick: No IPR, Initial stage IPR, As contacts become accessible (or empty). */
  ipr: string | null;
  /** Free text on the wire; read where it says one of the picks, or "No IPR on <teeth>". */
  iprPrescription: string | null;
  toothNumbering: string | null;
}

/** What the check reads of one measured tooth. */
export interface CheckedTooth {
  tooth: number;
  /** The most it is away from stage 0 at any stage: its centre's distance, and its turn. */
  furthestMm: number;
  furthestDeg: number;
  maxStepMm: number;
  maxStepDeg: number;
}

export interface PlanCheckInput {
  prescription: PlanPrescription;
  summary: {
    upperStages: number;
    lowerStages: number;
    ipr: { contact: string; amountMm: number; stage?: number }[];
    attachmentTeeth: number[];
  };
  limits: { stepMm: number; stepDeg: number };
  /** The measured teeth of each arch that has them; the movement rules are checked on these alone. */
  measured: CheckedTooth[];
  /** The arches whose movements were measured (an extraction is looked for in these). */
  measuredArches: ('upper' | 'lower')[];
}

/** A stored tooth list ('3, 14', 'N/A', '') as Universal numbers. */
export function toothListOf(stored: string | null | undefined): number[] {
  return (stored ?? '')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((tooth) => Number.isInteger(tooth) && tooth >= 1 && tooth <= 32);
}

export const numberingOf = (chosen: string | null | undefined): NumberingSystem =>
  chosen === 'FDI' || chosen === 'Palmer' ? chosen : 'Universal';

/**
 * What the prescription allows of IPR: the pick, else the free text when it reads as a pick
 * ('No IPR', ...) or as 'No IPR on 6, 11' (teeth in the case's numbering, Universal or FDI:
 * IPR elsewhere is allowed, at any stage). Anything else is not read.
 */
export function iprAllowance(prescription: Pick<PlanPrescription, 'ipr' | 'iprPrescription' | 'toothNumbering'>): {
  rule: IprRule | undefined;
  excluded: number[];
} {
  const pick = iprRules[(prescription.ipr ?? '').trim().toLowerCase()];
  const text = (prescription.iprPrescription ?? '').trim();
  const excluded = noIprTeeth(text, numberingOf(prescription.toothNumbering));
  return { rule: pick ?? iprRules[text.toLowerCase()], excluded };
}

function noIprTeeth(text: string, system: NumberingSystem): number[] {
  const match = /^no ipr\b(.*)$/i.exec(text);
  const rest = (match?.[1] ?? '').replace(/\b(on|at|for|between|teeth|tooth|and)\b/gi, ' ');
  if (!/\d/.test(rest) || !/^[\d\s,;/&.:-]+$/.test(rest)) return [];
  const teeth = (rest.match(/\d+/g) ?? [])
    .map(Number)
    .map((number) => (system === 'FDI' ? fdiToUniversal(number) : number >= 1 && number <= 32 ? number : undefined));
  return teeth.every((tooth) => tooth !== undefined) ? [...new Set(teeth)] : [];
}

/** The plan's IPR contact ('11-21', FDI) as Universal numbers. */
const contactTeeth = (contact: string) =>
  contact
    .split('-')
    .map((part) => fdiToUniversal(Number(part)))
    .filter((tooth): tooth is number => tooth !== undefined);

const mm = (value: number) => `${value.toFixed(2)} mm`;
const deg = (value: number) => `${value.toFixed(1)}°`;

/** Each way the version departs from the prescription or the limits; [] when it keeps to them. */
export function checkPlan({ prescription, summary, limits, measured, measuredArches }: PlanCheckInput): PlanFinding[] {
  const system = numberingOf(prescription.toothNumbering);
  const label = (tooth: number) => toothLabel(tooth, system);
  const findings: PlanFinding[] = [];

  const doNotMove = new Set(toothListOf(prescription.moveTooth));
  for (const tooth of measured) {
    if (!doNotMove.has(tooth.tooth)) continue;
    const moves = tooth.furthestMm > doNotMoveTolerance.mm;
    const turns = tooth.furthestDeg > doNotMoveTolerance.deg;
    if (!moves && !turns) continue;
    const how = [moves && `moves ${mm(tooth.furthestMm)}`, turns && `turns ${deg(tooth.furthestDeg)}`]
      .filter(Boolean)
      .join(' and ');
    findings.push({
      kind: 'doNotMove',
      teeth: [tooth.tooth],
      message: `${label(tooth.tooth)} ${how}; the prescription says not to move it`,
    });
  }

  const present = new Set(measured.map((tooth) => tooth.tooth));
  for (const tooth of toothListOf(prescription.extractTooth)) {
    const arch = tooth <= 16 ? 'upper' : 'lower';
    if (!measuredArches.includes(arch) || !present.has(tooth)) continue;
    findings.push({
      kind: 'extraction',
      teeth: [tooth],
      message: `${label(tooth)} is still there in the last stage; the prescription says to extract it`,
    });
  }

  const { rule, excluded } = iprAllowance(prescription);
  for (const row of summary.ipr) {
    const teeth = contactTeeth(row.contact);
    const where = `${mm(row.amountMm)} of IPR at ${teeth.map(label).join('-')}${row.stage === undefined ? '' : ` (stage ${row.stage})`}`;
    const onExcluded = teeth.filter((tooth) => excluded.includes(tooth));
    if (rule === 'none') {
      findings.push({ kind: 'ipr', teeth, message: `${where}; the prescription says No IPR` });
    } else if (rule === 'initial' && row.stage !== undefined && row.stage > 1) {
      findings.push({
        kind: 'ipr',
        teeth,
        message: `${where}; the prescription asks for IPR at the initial stage only`,
      });
    } else if (onExcluded.length > 0) {
      findings.push({
        kind: 'ipr',
        teeth,
        message: `${where}; the prescription says no IPR on ${onExcluded.map(label).join(', ')}`,
      });
    }
  }

  const noAttachment = new Set(toothListOf(prescription.noAttachment));
  for (const fdi of summary.attachmentTeeth) {
    const tooth = fdiToUniversal(fdi);
    if (tooth === undefined || !noAttachment.has(tooth)) continue;
    findings.push({
      kind: 'attachment',
      teeth: [tooth],
      message: `Attachment on ${label(tooth)}; the prescription says no attachment on it`,
    });
  }

  const over = measured.filter((tooth) => tooth.maxStepMm > limits.stepMm || tooth.maxStepDeg > limits.stepDeg);
  if (over.length > 0) {
    const each = over.map((tooth) => {
      const parts = [
        tooth.maxStepMm > limits.stepMm && mm(tooth.maxStepMm),
        tooth.maxStepDeg > limits.stepDeg && deg(tooth.maxStepDeg),
      ].filter(Boolean);
      return `${label(tooth.tooth)} (${parts.join(', ')})`;
    });
    findings.push({
      kind: 'stepLimit',
      teeth: over.map((tooth) => tooth.tooth),
      message: `${over.length === 1 ? '1 tooth moves' : `${over.length} teeth move`} more than the lab's limit of ${limits.stepMm} mm or ${limits.stepDeg}° in one stage: ${each.join(', ')}`,
    });
  }
  return findings;
}
