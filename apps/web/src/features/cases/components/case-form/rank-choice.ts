import { fieldsOfKind } from '@portal/contract';

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
