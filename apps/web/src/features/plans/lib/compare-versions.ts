import { attachmentStage, type PlanMovementsAnswer, type PlanVersion } from '@portal/contract';

/** A tooth's final position differs between two versions by more than this (millimetres) to be named. */
export const movedApartMm = 0.1;

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
  for (const [arch, key] of [
    ['Upper', 'upperStages'],
    ['Lower', 'lowerStages'],
  ] as const) {
    if (from.summary[key] !== to.summary[key]) {
      changes.push(`${arch} stages: ${from.summary[key]} → ${to.summary[key]}`);
    }
  }
  const iprOf = (summary: Summary) => new Map(summary.ipr.map((row) => [row.contact, row.amountMm]));
  const [iprFrom, iprTo] = [iprOf(from.summary), iprOf(to.summary)];
  const contacts = [...new Set([...iprFrom.keys(), ...iprTo.keys()])].filter(
    (contact) => iprFrom.get(contact) !== iprTo.get(contact),
  );
  if (contacts.length > 0) {
    const total = (summary: Summary) => sum(summary.ipr.map((row) => row.amountMm)).toFixed(2);
    const each = contacts.map(
      (contact) => `${contact} ${(iprFrom.get(contact) ?? 0).toFixed(2)} → ${(iprTo.get(contact) ?? 0).toFixed(2)} mm`,
    );
    changes.push(`IPR: ${total(from.summary)} → ${total(to.summary)} mm in all (${each.join(', ')})`);
  }
  const added = to.summary.attachmentTeeth.filter((tooth) => !from.summary.attachmentTeeth.includes(tooth));
  const removed = from.summary.attachmentTeeth.filter((tooth) => !to.summary.attachmentTeeth.includes(tooth));
  if (added.length > 0) changes.push(`Attachments added on ${added.join(', ')}`);
  if (removed.length > 0) changes.push(`Attachments removed from ${removed.join(', ')}`);
  const moved = to.summary.attachmentTeeth.flatMap((tooth) => {
    if (!from.summary.attachmentTeeth.includes(tooth)) return [];
    const [before, after] = [attachmentStage(from.summary, tooth), attachmentStage(to.summary, tooth)];
    return before === after ? [] : [`${tooth} stage ${before} → ${after}`];
  });
  if (moved.length > 0) changes.push(`Attachments placed at another stage: ${moved.join(', ')}`);
  if (from.movements?.available && to.movements?.available) {
    const moved = to.movements.teeth.flatMap((tooth) => {
      const before = from.movements!.teeth.find((other) => other.tooth === tooth.tooth);
      if (!before) return [];
      const apart = Math.hypot(
        tooth.translationMm.mesiodistal - before.translationMm.mesiodistal,
        tooth.translationMm.buccolingual - before.translationMm.buccolingual,
        tooth.translationMm.vertical - before.translationMm.vertical,
      );
      return apart > movedApartMm ? [`${toothName(tooth.tooth)} (${apart.toFixed(2)} mm)`] : [];
    });
    changes.push(
      moved.length === 0
        ? `No tooth ends more than ${movedApartMm} mm from where version ${from.version} put it`
        : `Final position moved more than ${movedApartMm} mm: ${moved.join(', ')}`,
    );
  } else {
    changes.push('The final positions cannot be compared: the tooth movements of both versions are needed');
  }
  return changes;
}
