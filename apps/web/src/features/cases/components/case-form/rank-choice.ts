import { t } from '@lingui/core/macro';
import { fieldsOfKind } from '@portal/contract';
import { serverText } from '../../../../lib/server-text.ts';

const rankFields = fieldsOfKind('rank');
export type RankField = (typeof rankFields)[number]['sent'];
type Ranks = Partial<Record<RankField, string | null>>;

/**
 * The ranks after `field` takes `rank` (or '' to clear it): a rank another preference holds
 * moves to it in exchange for `field`'s old one, so two ranks swap and no choice is stuck.
 */
export function chooseRank(values: Ranks, field: RankField, rank: string): Record<RankField, string> {
  const current = Object.fromEntries(rankFields.map(({ sent }) => [sent, values[sent] ?? ''])) as Record<
    RankField,
    string
  >;
  const previous = current[field];
  const holder = rank ? rankFields.find(({ sent }) => sent !== field && current[sent] === rank) : undefined;
  return { ...current, [field]: rank, ...(holder ? { [holder.sent]: previous } : {}) };
}

/**
 * What `chooseRank` did to another preference, said where the doctor is looking (issue 41: IPR
 * went from First to Third unnoticed): "IPR moved to Third preference", or null when nothing else moved.
 */
export function rankSwapNote(values: Ranks, field: RankField, rank: string): string | null {
  if (!rank) return null;
  const holder = rankFields.find(({ sent }) => sent !== field && (values[sent] ?? '') === rank);
  if (!holder) return null;
  const previous = values[field] ?? '';
  const holderLabel = serverText(holder.label);
  if (!previous) return t`${holderLabel} now has no rank`;
  const previousRank = serverText(previous);
  return t`${holderLabel} moved to ${previousRank}`;
}
