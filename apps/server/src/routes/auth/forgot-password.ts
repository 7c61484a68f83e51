import { endpoints, forgotPasswordMessages } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { throttle } from '../../plugins/rate-limit.ts';
import { mailForgottenPasswordLinks } from '../../services/password-reset.ts';
import { route } from '../define-route.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The name a "Forgot password?" asked for, looked up once its answer has gone. */
    forgottenName?: string;
  }
}

/** Requests an address may make in an hour: a lab's staff share one address behind its router. */
const requestsPerAddressHour = 20;
/** Requests for one name in an hour, from anywhere: its owner asking again, not a mailbox flood. */
const requestsPerNameHour = 3;

/** The name as the throttle keys it: case ignored, as the lookup does. */
const nameKey = (request: FastifyRequest) =>
  encodeURIComponent(
    String((request.body as { username?: unknown } | undefined)?.username ?? '')
      .trim()
      .toLowerCase()
      .replace(/\p{Cs}/gu, '\uFFFD'),
  );

/** The name typed, for the audit log (the request has no signed-in actor). */
const typedName = (request: FastifyRequest) => {
  const name = (request.body as { username?: unknown } | undefined)?.username;
  return typeof name === 'string' ? name.trim() : undefined;
};

/**
 * "Forgot password?" on the sign-in page (docs/decisions/accounts.md § Forgot password). The
 * answer is the same for every name and goes before the account is looked up; the lookup and
 * the mail run after it (onResponse), one at a time, so neither the answer nor its time tells
 * whether the name is someone's. Throttled per address and per name typed; the service also
 * caps the links one account is mailed per hour, whichever name reached it.
 */
export async function forgotPasswordRoutes(app: FastifyInstance) {
  const byAddress = throttle(
    app,
    [
      {
        name: 'address',
        max: requestsPerAddressHour,
        timeWindow: '1 hour',
        key: (request) => `forgot-address:${request.ip}`,
      },
    ],
    forgotPasswordMessages.tooMany,
  );
  const byName = throttle(
    app,
    [
      {
        name: 'account',
        max: requestsPerNameHour,
        timeWindow: '1 hour',
        key: (request) => `forgot-name:${nameKey(request)}`,
      },
    ],
    forgotPasswordMessages.tooMany,
  );

  let lookups = Promise.resolve();
  app.addHook('onResponse', async (request) => {
    const name = request.forgottenName;
    if (name === undefined) return;
    const deps = { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl };
    lookups = lookups
      .then(() => mailForgottenPasswordLinks(deps, name))
      .then((mailed) => {
        if (mailed.length > 0) request.log.info({ userIds: mailed }, 'forgotten password link mailed');
      })
      .catch((error: unknown) => request.log.error({ err: error }, 'forgotten password link not mailed'));
  });
  // A test (or a closing server) waits for the lookups already started.
  app.addHook('onClose', async () => {
    await lookups;
  });

  route(
    app,
    endpoints.forgotPassword,
    {
      audit: { action: 'auth.password_forgotten', actorName: typedName },
      onRequest: byAddress,
      preHandler: byName,
    },
    async (request) => {
      request.forgottenName = request.body.username;
      return { message: forgotPasswordMessages.mailed };
    },
  );
}
