/**
 * A case's time in its status against the lab's turnaround targets (docs/decisions/cases.md
 * § Turnaround): plain values with no zod, so the dashboard's list shows them without loading the
 * validation library (docs/decisions/speed.md § On the wire). case-work.ts re-exports them.
 */
import type { CaseStatus } from './case-statuses.ts';

/** Days a case may stay in each status before it is overdue (docs/decisions/cases.md § Turnaround); a status without one has no target. */
export type TurnaroundTargets = Partial<Record<CaseStatus, number>>;

const dayMs = 86_400_000;

/** Whole days since `since` (a case's StatusChangedAt), at `now`. */
export const daysSince = (since: string, now = Date.now()) =>
  Math.max(0, Math.floor((now - Date.parse(since)) / dayMs));

/** When a case in `status` since `since` is due to move on, or undefined when the status has no target. */
export function dueAt(status: CaseStatus, since: string, targets: TurnaroundTargets): Date | undefined {
  const days = targets[status];
  return days === undefined ? undefined : new Date(Date.parse(since) + days * dayMs);
}
