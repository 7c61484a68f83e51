import { z } from 'zod';
import { caseListQuery } from './cases.ts';

export const auditOutcomes = ['success', 'failure', 'refused'] as const;
export const auditOutcome = z.enum(auditOutcomes, { error: 'Outcome is not valid' });
export type AuditOutcome = z.infer<typeof auditOutcome>;

/** What the audit log records; the administrator's screen filters by these. */
export const auditActions = [
  'auth.login',
  'auth.logout',
  'auth.password_reset',
  'auth.password_forgotten',
  'session.end',
  'session.end_others',
  'user.sessions_end',
  'access.refused',
  'case.create',
  'case.view',
  'case.download',
  'case.status',
  'role.create',
  'role.update',
  'role.delete',
  'permission.grant',
  'permission.revoke',
  'user.create',
  'user.update',
  'user.delete',
  'doctor.create',
  'doctor.update',
  'doctor.activate',
  'doctor.delete',
  'doctor.password_reset_request',
  'assistant.invite',
  'assistant.revoke',
  'email.send',
  'case.message',
  'plan.upload',
  'plan.approve',
  'plan.request_changes',
  'plan.comment',
  'plan.comment_delete',
  'plan.comment_resolve',
  'plan.comment_reply',
  'plan.share',
  'plan.share_email',
  'plan.share_revoke',
  'plan.share_view',
  'progressScan.create',
  'doctor.preferences',
  'case.print',
  'draft.create',
  'draft.delete',
  'auth.second_factor',
  'auth.passkey',
  'auth.second_step_locked',
  'second_factor.enrol',
  'second_factor.remove',
  'second_factor.recovery_codes',
  'second_factor.reauthenticate',
  'user.second_factor_reset',
  'role.second_factor',
  'case.assign',
  'case.note',
  'account.mail_preferences',
  'settings.update',
  'account.time_zone',
  'account.locale',
  'account.tooth_notation',
] as const;
export const auditAction = z.enum(auditActions, { error: 'Action is not valid' });
export type AuditAction = z.infer<typeof auditAction>;

const isoDate = (label: string) => z.iso.datetime({ offset: true, error: `${label} must be an ISO date and time` });

/** `GET /api/audit`: one page, newest first; every filter is optional. */
export const auditListQuery = caseListQuery.pick({ page: true, pageSize: true }).extend({
  action: auditAction.optional(),
  actor: z.string().trim().max(100, 'User is at most 100 characters').optional(),
  outcome: auditOutcome.optional(),
  from: isoDate('From').optional(),
  to: isoDate('To').optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export const auditEntry = z.object({
  AuditId: z.number(),
  /** UTC, ISO 8601. */
  At: z.string(),
  UserId: z.number().nullable(),
  UserName: z.string().nullable(),
  Action: z.string(),
  Target: z.string().nullable(),
  /** What the target names as it reads now ("Case AL-2611-0001 › plan v2"); null when it names no record. */
  TargetLabel: z.string().nullable(),
  Outcome: auditOutcome,
  StatusCode: z.number(),
  Address: z.string(),
  RequestId: z.string(),
  /** A change's before and after, by setting (the lab's settings); absent for other entries. */
  Changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })).optional(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
