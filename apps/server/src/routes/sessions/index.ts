import { endpoints } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

  // The target is the caller, also when their session id is refused before the handler.
  const callerTarget = (request: FastifyRequest) => `user:${request.user?.userId}`;
  route(app, endpoints.sessionEnd, { audit: { action: 'session.end', target: callerTarget } }, async (request) =>
    ended(await endOwnSession(app.db, request.user, request.record.sessionId)),
  );

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
