import type { LoginResponse } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_COOKIE } from '../../plugins/auth.ts';
import type { SessionAnswer } from '../../services/auth.ts';
import { pictureUrl } from '../urls.ts';

export const cookiePath = '/';

/** What every finished sign-in answers: the session as JSON, and the token cookie for pictures and downloads. */
export function answerSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  session: SessionAnswer,
): LoginResponse {
  const { exp, profilePicKey, ...signedIn } = session;
  const answer = { ...signedIn, profilePic: pictureUrl(profilePicKey) };
  request.auditDetail = { ...request.auditDetail, actorUserId: answer.userId, target: `user:${answer.userId}` };
  reply.setCookie(TOKEN_COOKIE, answer.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.publicUrl.startsWith('https:'),
    path: cookiePath,
    expires: new Date(exp * 1000),
  });
  return answer;
}

/** Where a sign-in comes from, for the session it starts. */
export const signInClient = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});
