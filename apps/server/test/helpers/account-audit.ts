import type { AuditEntry } from '@portal/contract';
import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/**
 * The audit log's rows of one change to a user's own account (`account.locale`,
 * `account.tooth_notation`, ...), as the administrator reads them: newest first, this user's only.
 */
export async function accountAudit(
  t: TestApp,
  adminToken: string,
  action: string,
  user: { userId: number; username: string },
): Promise<AuditEntry[]> {
  await t.app.auditWritten();
  const response = await t.as(adminToken, {
    method: 'GET',
    url: '/api/audit',
    query: { action, actor: user.username, pageSize: '30' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEntry[]>().filter((entry) => entry.Target === `user:${user.userId}`);
}
