import type { AuditListParams } from './get-audit-entries.ts';

export const auditKeys = {
  all: ['audit'] as const,
  list: (params: AuditListParams) => [...auditKeys.all, params] as const,
};
