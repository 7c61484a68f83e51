/**
 * A treatment plan version's states as plain values, without zod: the dashboard's plan
 * tiles and filter use them without loading the validation library (docs/decisions/speed.md
 * § On the wire). plans.ts builds the schema from them.
 */
export const planStates = ['awaiting_approval', 'changes_requested', 'approved', 'superseded'] as const;
export type PlanState = (typeof planStates)[number];

export const planStateLabels: Record<PlanState, string> = {
  awaiting_approval: 'Awaiting approval',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  superseded: 'Superseded',
};

export const isPlanState = (value: unknown): value is PlanState => planStates.includes(value as PlanState);
