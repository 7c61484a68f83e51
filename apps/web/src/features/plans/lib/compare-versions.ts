import { t } from '@lingui/core/macro';
import { attachmentStage, type PlanMovementsAnswer, type PlanVersion } from '@portal/contract';

/** A tooth's final position differs between two versions by more than this (millimetres) to be named. */
export const movedApartMm = 0.1;

import { formatDecimal, formatFigure } from '../../../lib/format-number.ts';

type Summary = PlanVersion['summary'];

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * What changed from one version of a case's plan to another, in short sentences: the stage
 * counts, the IPR (in all and per contact), the attachment teeth and stages, and the teeth whose final
 * position moved more than `movedApartMm`. Both versions start from the same scan, so a
 * tooth's final position is its movement from stage 0, compared in its own axes.
 */
export function compareVersions(
  from: { version: number; summary: Summary; movements?: PlanMovementsAnswer },
  to: { version: number; summary: Summary; movements?: PlanMovementsAnswer },
  toothName: (universal: number) => string,
): string[] {
  const changes: string[] = [];
  // In the language shown when called (while rendering).
  for (const key of ['upperStages', 'lowerStages'] as const) {
    const [before, after] = [from.summary[key], to.summary[key]];
    if (before !== after) {
      changes.push(
        key === 'upperStages' ? t`Upper stages: ${before} → ${after}` : t`Lower stages: ${before} → ${after}`,
      );
    }
  }
  const iprOf = (summary: Summary) => new Map(summary.ipr.map((row) => [row.contact, row.amountMm]));
  const [iprFrom, iprTo] = [iprOf(from.summary), iprOf(to.summary)];
  const contacts = [...new Set([...iprFrom.keys(), ...iprTo.keys()])].filter(
    (contact) => iprFrom.get(contact) !== iprTo.get(contact),
  );
  if (contacts.length > 0) {
    const total = (summary: Summary) => formatDecimal(sum(summary.ipr.map((row) => row.amountMm)), 2);
    const each = contacts
      .map((contact) => {
        const before = formatDecimal(iprFrom.get(contact) ?? 0, 2);
        const after = formatDecimal(iprTo.get(contact) ?? 0, 2);
        return t`${contact} ${before} → ${after} mm`;
      })
      .join(', ');
    const [totalBefore, totalAfter] = [total(from.summary), total(to.summary)];
    changes.push(t`IPR: ${totalBefore} → ${totalAfter} mm in all (${each})`);
  }
  const added = to.summary.attachmentTeeth.filter((tooth) => !from.summary.attachmentTeeth.includes(tooth));
  const removed = from.summary.attachmentTeeth.filter((tooth) => !to.summary.attachmentTeeth.includes(tooth));
  const [addedTeeth, removedTeeth] = [added.join(', '), removed.join(', ')];
  if (added.length > 0) changes.push(t`Attachments added on ${addedTeeth}`);
  if (removed.length > 0) changes.push(t`Attachments removed from ${removedTeeth}`);
  const moved = to.summary.attachmentTeeth.flatMap((tooth) => {
    if (!from.summary.attachmentTeeth.includes(tooth)) return [];
    const [before, after] = [attachmentStage(from.summary, tooth), attachmentStage(to.summary, tooth)];
    return before === after ? [] : [t`${tooth} stage ${before} → ${after}`];
  });
  const movedTeeth = moved.join(', ');
  if (moved.length > 0) changes.push(t`Attachments placed at another stage: ${movedTeeth}`);
  if (from.movements?.available && to.movements?.available) {
    const moved = to.movements.teeth.flatMap((tooth) => {
      const before = from.movements!.teeth.find((other) => other.tooth === tooth.tooth);
      if (!before) return [];
      const apart = Math.hypot(
        tooth.translationMm.mesiodistal - before.translationMm.mesiodistal,
        tooth.translationMm.buccolingual - before.translationMm.buccolingual,
        tooth.translationMm.vertical - before.translationMm.vertical,
      );
      const name = toothName(tooth.tooth);
      const apartMm = formatDecimal(apart, 2);
      return apart > movedApartMm ? [t`${name} (${apartMm} mm)`] : [];
    });
    const limit = formatFigure(movedApartMm);
    const fromVersion = from.version;
    const movedTeeth = moved.join(', ');
    changes.push(
      moved.length === 0
        ? t`No tooth ends more than ${limit} mm from where version ${fromVersion} put it`
        : t`Final position moved more than ${limit} mm: ${movedTeeth}`,
    );
  } else {
    changes.push(t`The final positions cannot be compared: the tooth movements of both versions are needed`);
  }
  return changes;
}
