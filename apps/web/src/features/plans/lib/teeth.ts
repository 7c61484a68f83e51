import { t } from '@lingui/core/macro';
import { attachmentStage, type PlanSummary } from '@portal/contract';

type Attachments = Pick<PlanSummary, 'attachmentTeeth' | 'attachmentStages'>;

/**
 * The lab's attachment teeth as typed: FDI numbers, each with `:stage` when its attachment
 * is placed after stage 0. "13, 23 33:5" -> teeth [13, 23, 33], 33 at stage 5; undefined
 * when anything else is typed.
 */
export function parseAttachments(text: string): Attachments | undefined {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const matches = parts.map((part) => /^(\d{1,2})(?::(\d{1,2}))?$/.exec(part));
  if (!matches.every(Boolean)) return undefined;
  return {
    attachmentTeeth: matches.map((match) => Number(match![1])),
    attachmentStages: matches.flatMap((match) =>
      match![2] === undefined ? [] : [{ tooth: Number(match![1]), stage: Number(match![2]) }],
    ),
  };
}

/** The attachment teeth as the summary shows them: "13, 23, 33 (stage 5)", or "None". */
export function attachmentsText(summary: Attachments): string {
  if (summary.attachmentTeeth.length === 0) return t`None`;
  return summary.attachmentTeeth
    .map((tooth) => {
      const stage = attachmentStage(summary, tooth);
      return stage === 0 ? String(tooth) : t`${tooth} (stage ${stage})`;
    })
    .join(', ');
}

/** The attachment teeth as the form types them, parseAttachments' inverse: "13, 23, 33:5". */
export function attachmentsInput(summary: Attachments): string {
  return summary.attachmentTeeth
    .map((tooth) => {
      const stage = attachmentStage(summary, tooth);
      return stage === 0 ? String(tooth) : `${tooth}:${stage}`;
    })
    .join(', ');
}
