/**
 * A case's statuses as plain values, without zod: the dashboard's tiles and badges show
 * them without loading the validation library (docs/decisions/speed.md § On the wire). cases.ts
 * builds the schemas from them.
 */
export const caseStatuses = ['new', 'inprogress', 'dispatched', 'delivered'] as const;
export type CaseStatus = (typeof caseStatuses)[number];

export const caseStatusLabels: Record<CaseStatus, string> = {
  new: 'New',
  inprogress: 'In Progress',
  dispatched: 'Dispatched',
  delivered: 'Delivered',
};
