import { messages, type Access } from '@portal/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAllowed, type ServedDoctor, type SignedInUser } from '../auth/policy.ts';
import { TokenService } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import {
  doctorAssistants,
  doctors,
  liveRoleId,
  pages,
  passkeys,
  revokedTokens,
  rolePermissions,
  roles,
  sessions,
  totpFactors,
  users,
} from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The route also takes the interim token of a sign-in that must enrol a second factor. */
    acceptsEnrolmentToken?: boolean;
    /** The route also serves a session that must enrol a second factor first (signing out). */
    beforeEnrolment?: boolean;
  }
  interface FastifyRequest {
    user: SignedInUser | null;
  }
  interface FastifyInstance {
    tokens: TokenService;
    /** Every /api route registered after this plugin, as declared: read-only, for the authorization matrix test. */
    apiRoutes: readonly { method: string; url: string }[];
  }
}

export const TOKEN_COOKIE = 'token';

/**
 * The bearer token, or the cookie for GET and HEAD only: `<img src>` and download links
 * need the cookie, while a cross-site form can never change anything with it.
 */
export function readToken(request: Pick<FastifyRequest, 'headers' | 'method' | 'cookies'>): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  if (request.method === 'GET' || request.method === 'HEAD') return request.cookies[TOKEN_COOKIE];
  return undefined;
}

/**
 * The doctors a user works for (policy.ts `servedDoctors`): a doctor themselves, an assistant
 * every doctor whose invitation they hold and who is still active and not deleted.
 */
/** The pages of the user's role (their menu; what `isAllowed` checks for staff). */
export const pagesOfUser = sql<
  string[]
>`array(select ${pages.pageUrl} from ${rolePermissions} join ${pages} on ${pages.pageId} = ${rolePermissions.pageId} where ${rolePermissions.roleId} = ${users.roleId})`;

const servedDoctorsOfUser = sql<ServedDoctor[]>`case when ${users.userType} = 'Doctor'
  then json_build_array(json_build_object('userId', ${doctors.userId}, 'doctorId', ${doctors.doctorId}))
  else coalesce((select json_agg(json_build_object('userId', sd.user_id, 'doctorId', sd.doctor_id) order by sd.user_id)
    from ${doctorAssistants}
    join users su on su.user_id = ${doctorAssistants.doctorUserId}
    join doctors sd on sd.user_id = su.user_id
    where ${doctorAssistants.assistantUserId} = ${users.userId} and ${doctorAssistants.revokedAt} is null
      and su.is_active and su.deleted_at is null), '[]'::json) end`;

/**
 * The user's role (left-joined) requires a second factor and they have none: a session from
 * before the role came to require one. The factors are looked at only when the role requires
 * one, so the usual request pays one primary-key probe of `roles`, a few microseconds
 * (docs/decisions/second-step-lock-and-enrolment.md).
 */
const mustEnrolOfUser = sql<boolean>`case when ${roles.requiresSecondFactor}
  then not exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${users.userId} and ${totpFactors.confirmedAt} is not null)
    and not exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.userId})
  else false end`;

/** Who a user is to the policy (SignedInUser but the pages and the token), read from `users` left-joined to `doctors`. */
export const signedInUserColumns = {
  userId: users.userId,
  roleId: liveRoleId,
  userType: users.userType,
  doctorId: doctors.doctorId,
  servedDoctors: servedDoctorsOfUser,
};

/**
 * Who the token belongs to, if it is still good: its session not ended, the user present,
 * active and at the same token version. `isSeenLately` spares a write per request: a
 * session's last-seen time moves at most once a minute. Placeholders `jti`, `userId`, `version`.
 * Exported so the list benchmark's baseline (bench/lists.ts) runs this very SQL, not a copy.
 */
export const findSessionQuery = (db: Database) =>
  db
    .select({
      ...signedInUserColumns,
      isSeenLately: sql<boolean>`${sessions.lastSeenAt} > now() - interval '1 minute'`,
      pages: pagesOfUser,
      mustEnrol: mustEnrolOfUser,
    })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .leftJoin(doctors, eq(doctors.userId, users.userId))
    .leftJoin(roles, eq(roles.roleId, users.roleId))
    .where(
      and(
        eq(sessions.sessionId, sql.placeholder('jti')),
        eq(users.userId, sql.placeholder('userId')),
        eq(users.isActive, true),
        eq(users.tokenVersion, sql.placeholder('version')),
        sql`${users.deletedAt} is null`,
      ),
    );

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('tokens', new TokenService(app.config.jwtSecret, app.config.tokenTtl));
  app.decorateRequest('user', null);
  const apiRoutes: { method: string; url: string }[] = [];
  app.decorate('apiRoutes', apiRoutes);

  // Fail closed: an API route that forgets to say who may call it does not start.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.config?.access && !route.url.startsWith('/api/docs')) {
      throw new Error(`Route ${route.method} ${route.url} declares no config.access`);
    }
    if (route.url.startsWith('/api/')) {
      for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url });
    }
  });

  // Runs on every signed-in request: built and prepared once (named statement on PostgreSQL).
  const findSession = findSessionQuery(app.db).prepare('find_session');

  // Concurrent requests of one session at the minute's turn: the condition lets one write through.
  const touchSession = app.db
    .update(sessions)
    .set({ lastSeenAt: sql`now()`, address: sql`${sql.placeholder('address')}` })
    .where(
      and(eq(sessions.sessionId, sql.placeholder('jti')), sql`${sessions.lastSeenAt} <= now() - interval '1 minute'`),
    )
    .prepare('touch_session');

  async function loadUser(token: string, address?: string): Promise<SignedInUser | null> {
    const claims = await app.tokens.verify(token);
    if (!claims) return null;
    const [row] = await findSession.execute({ userId: Number(claims.sub), version: claims.ver, jti: claims.jti });
    if (!row) return null;
    if (address !== undefined && !row.isSeenLately) await touchSession.execute({ jti: claims.jti, address });
    return {
      userId: row.userId,
      roleId: row.roleId,
      userType: row.userType,
      doctorId: row.doctorId,
      servedDoctors: row.servedDoctors,
      pages: new Set(row.pages),
      jti: claims.jti,
      exp: claims.exp,
      ...(row.mustEnrol && { mustEnrol: true }),
    };
  }

  // An interim token has no session: its user is checked as a session's is, and the token
  // must not be used up (revoked_tokens keeps used-up interim tokens until they expire).
  const findEnrollingUser = app.db
    .select({
      ...signedInUserColumns,
      isRevoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder('jti')})`,
    })
    .from(users)
    .leftJoin(doctors, eq(doctors.userId, users.userId))
    .where(
      and(
        eq(users.userId, sql.placeholder('userId')),
        eq(users.isActive, true),
        eq(users.tokenVersion, sql.placeholder('version')),
        sql`${users.deletedAt} is null`,
      ),
    )
    .prepare('find_enrolling_user');

  /** The enrolling user an interim token of step 'enrol' stands for, checked as a session is. */
  async function loadEnrollingUser(token: string): Promise<SignedInUser | null> {
    const claims = await app.tokens.verifyInterim(token);
    if (claims?.step !== 'enrol') return null;
    const [row] = await findEnrollingUser.execute({ userId: Number(claims.sub), version: claims.ver, jti: claims.jti });
    if (!row || row.isRevoked) return null;
    const { userId, roleId, userType, doctorId, servedDoctors } = row;
    return {
      userId,
      roleId,
      userType,
      doctorId,
      servedDoctors,
      pages: new Set(),
      jti: claims.jti,
      exp: claims.exp,
      isEnrolling: true,
    };
  }

  app.decorate('loadSession', loadUser);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    const token = readToken(request);
    request.user = token ? await loadUser(token, request.ip) : null;
    if (!request.user && token && request.routeOptions.config.acceptsEnrolmentToken) {
      request.user = await loadEnrollingUser(token);
    }
    if (access === 'public') return;
    if (!request.user)
      throw unauthorized(token ? 'Your session has expired. Please sign in again.' : 'Please sign in.');
    const { acceptsEnrolmentToken, beforeEnrolment } = request.routeOptions.config;
    if (request.user.mustEnrol && !acceptsEnrolmentToken && !beforeEnrolment) {
      throw forbidden(messages.enrolmentRequired);
    }
    if (!isAllowed(request.user, access)) throw forbidden();
  });

  /** A used-up interim token is kept until it would have expired anyway. */
  app.decorate('revokeToken', async (jti: string, exp: number) => {
    await app.db
      .insert(revokedTokens)
      .values({ jti, expiresAt: new Date(exp * 1000) })
      .onConflictDoNothing();
    await app.db.delete(revokedTokens).where(gt(sql`now()`, revokedTokens.expiresAt));
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Marks an interim sign-in token used up (services/second-factor). */
    revokeToken(jti: string, exp: number): Promise<void>;
    /** The user a token signs in, checked as every request checks it; null once it is no longer good. */
    loadSession(token: string): Promise<SignedInUser | null>;
  }
}
