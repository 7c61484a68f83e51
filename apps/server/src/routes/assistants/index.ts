import { assistantMessages, endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { inviteAssistant, listAssistants, listServedDoctors, revokeAssistant } from '../../services/assistants.ts';
import { route } from '../define-route.ts';

/** A doctor's assistants, and the doctors an assistant works for (docs/decisions/assistants.md § Assistants). */
export async function assistantRoutes(app: FastifyInstance) {
  route(app, endpoints.assistantList, {}, (request) => listAssistants(app.db, request.user.userId));

  route(app, endpoints.assistantInvite, { audit: { action: 'assistant.invite' } }, async (request) => {
    const deps = { db: app.db, outbox: app.outbox, passwords: app.passwords, publicUrl: app.config.publicUrl };
    const invited = await inviteAssistant(deps, request.user, request.body);
    request.auditDetail = { target: `user:${invited.assistantUserId}` };
    return { message: invited.message };
  });

  route(
    app,
    endpoints.assistantRevoke,
    { audit: { action: 'assistant.revoke', target: paramTarget({ user: 'assistantUserId' }) } },
    async (request) => {
      await revokeAssistant(app.db, request.user.userId, request.record.assistantUserId);
      return { message: assistantMessages.revoked };
    },
  );

  route(app, endpoints.assistantDoctors, {}, (request) => listServedDoctors(app.db, request.user));
}
