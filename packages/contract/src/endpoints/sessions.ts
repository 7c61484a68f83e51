import { idParams } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { sessionIdParams, sessionsEnded, signedInSession } from '../signed-in-sessions.ts';

const tag = 'sessions';
/** Another user's sessions: the Users page (Web users), within the "no stronger account" rule. */
const manageUsers = { pages: ['/users'] } as const;

export const sessionEndpoints = {
  sessionList: defineEndpoint({
    method: 'GET',
    path: '/api/auth/sessions',
    operationId: 'sessionList',
    summary: "The caller's signed-in devices, newest first; the one asking is marked current",
    tag,
    access: 'signedIn',
    answer: signedInSession.array(),
  }),
  sessionEnd: defineEndpoint({
    method: 'DELETE',
    path: '/api/auth/sessions/:sessionId',
    record: 'session',
    operationId: 'sessionEnd',
    summary: "End one of the caller's sessions: its token is refused at once (404 for anyone else's)",
    tag,
    access: 'signedIn',
    params: sessionIdParams,
    answer: sessionsEnded,
    errors: [404],
  }),
  sessionEndOthers: defineEndpoint({
    method: 'POST',
    path: '/api/auth/sessions/end_others',
    operationId: 'sessionEndOthers',
    summary: "End every session of the caller's but the one asking",
    tag,
    access: 'signedIn',
    answer: sessionsEnded,
  }),
  userSessionList: defineEndpoint({
    method: 'GET',
    path: '/api/user/:id/sessions',
    operationId: 'userSessionList',
    summary: "A Web user's signed-in devices",
    tag,
    access: manageUsers,
    params: idParams,
    answer: signedInSession.array(),
    errors: [404],
  }),
  userSessionEndAll: defineEndpoint({
    method: 'DELETE',
    path: '/api/user/:id/sessions',
    operationId: 'userSessionEndAll',
    summary: 'End every session of a Web user: their tokens are refused at once',
    tag,
    access: manageUsers,
    params: idParams,
    answer: sessionsEnded,
    errors: [404],
  }),
};
