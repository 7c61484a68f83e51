import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import {
  endOtherOwnSessions,
  endOwnSession,
  endUserSessions,
  listOwnSessions,
  listUserSessions,
} from '../../services/sessions.ts';
import { route } from '../define-route.ts';

const byUserId = paramTarget({ user: 'id' });

/** "1 session ended", "3 sessions ended". */
const endedMessage = (count: number) => `${count} ${count === 1 ? 'session' : 'sessions'} ended`;

export async function sessionRoutes(app: FastifyInstance) {
  /** The rows are gone, so every process refuses their tokens; their event streams close now. */
  const ended = async (sessionIds: string[]) => {
    await app.events.endSessions(sessionIds);
    return { message: endedMessage(sessionIds.length), ended: sessionIds.length };
  };

  route(app, endpoints.sessionList, {}, (request) => listOwnSessions(app.db, request.user));

  route(app, endpoints.sessionEnd, { audit: { action: 'session.end' } }, async (request) => {
    request.auditDetail = { target: `user:${request.user.userId}` };
    return ended(await endOwnSession(app.db, request.user, request.params.sessionId));
  });

  route(app, endpoints.sessionEndOthers, { audit: { action: 'session.end_others' } }, async (request) => {
    request.auditDetail = { target: `user:${request.user.userId}` };
    return ended(await endOtherOwnSessions(app.db, request.user));
  });

  route(app, endpoints.userSessionList, {}, (request) => listUserSessions(app.db, request.user, request.params.id));

  route(
    app,
    endpoints.userSessionEndAll,
    { audit: { action: 'user.sessions_end', target: byUserId } },
    async (request) => ended(await endUserSessions(app.db, request.user, request.params.id)),
  );
}
