import { ADMIN_ROLE_ID, type SignedInSession } from '@portal/contract';
import { and, desc, eq, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { assertHoldsPages, assertMayTouchAdministrator, type SignedInUser, type UserType } from '../auth/policy.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { liveRoleId, sessions, users } from '../db/schema.ts';
import { deviceLabel } from '../lib/device-label.ts';
import { notFound } from '../lib/errors.ts';
import { rolePageUrls } from './permissions.ts';

/** Who a session is started for: a user who has just proved who they are. */
export interface SessionHolder {
  userId: number;
  roleId: number;
  userType: UserType;
  tokenVersion: number;
}

/** Where the sign-in came from, as the request tells it. */
export interface SessionContext {
  ip: string;
  userAgent: string | undefined;
}

const maxUserAgentLength = 512;

/** The User-Agent as kept: at most 512 characters, no control characters (PostgreSQL refuses NUL). */
const keptUserAgent = (userAgent: string | undefined) =>
  (userAgent ?? '').replace(/\p{Cc}/gu, '').slice(0, maxUserAgentLength);

/**
 * Signs the user in: a token and its session row, which every request checks
 * (plugins/auth.ts). The one way a token is issued, after whatever proof the sign-in needs.
 */
export async function startSession(
  db: Database,
  tokens: TokenService,
  user: SessionHolder,
  context: SessionContext,
): Promise<{ token: string; exp: number }> {
  const issued = await tokens.issue(user);
  await db.insert(sessions).values({
    sessionId: issued.jti,
    userId: user.userId,
    tokenVersion: user.tokenVersion,
    address: context.ip,
    userAgent: keptUserAgent(context.userAgent),
    expiresAt: new Date(issued.exp * 1000),
  });
  // The user's dead sessions (expired, or from before a password change) go as a new one starts.
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, user.userId),
        or(lt(sessions.expiresAt, sql`now()`), ne(sessions.tokenVersion, user.tokenVersion)),
      ),
    );
  return { token: issued.token, exp: issued.exp };
}

/** The user's live sessions, newest first: not expired, and from their current token version. */
async function liveSessions(db: Database, userId: number, currentSessionId: string): Promise<SignedInSession[]> {
  const rows = await db
    .select({
      sessionId: sessions.sessionId,
      createdAt: isoTimestamp(sessions.createdAt),
      lastSeenAt: isoTimestamp(sessions.lastSeenAt),
      address: sessions.address,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .where(
      and(
        eq(sessions.userId, userId),
        eq(sessions.tokenVersion, users.tokenVersion),
        sql`${sessions.expiresAt} > now()`,
      ),
    )
    .orderBy(desc(sessions.createdAt), desc(sessions.sessionId));
  return rows.map((row) => ({
    ...row,
    device: deviceLabel(row.userAgent),
    isCurrent: row.sessionId === currentSessionId,
  }));
}

/** Ends sessions (their rows go, so their tokens are refused at the next request) and says which. */
async function endSessions(db: Database, userId: number, which: SQL): Promise<string[]> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), which))
    .returning({ sessionId: sessions.sessionId });
  return ended.map((row) => row.sessionId);
}

export const listOwnSessions = (db: Database, user: SignedInUser) => liveSessions(db, user.userId, user.jti);

/** One of the caller's own sessions; anyone else's, or one already ended, is "not found". */
export async function endOwnSession(db: Database, user: SignedInUser, sessionId: string): Promise<string[]> {
  const ended = await endSessions(db, user.userId, eq(sessions.sessionId, sessionId));
  if (ended.length === 0) throw notFound('Session');
  return ended;
}

/** Signing out: the session the request was made with. */
export const endCurrentSession = (db: Database, user: SignedInUser) =>
  endSessions(db, user.userId, eq(sessions.sessionId, user.jti));

/** Every session of the caller's but the one asking. */
export const endOtherOwnSessions = (db: Database, user: SignedInUser) =>
  endSessions(db, user.userId, ne(sessions.sessionId, user.jti));

/**
 * A Web user whose sessions the caller may see and end: not deleted, and no stronger
 * account than the caller's (the administrator's only by the administrator, a role's only
 * by someone holding all its pages), as for editing them (services/users.ts).
 */
export async function findManagedUser(db: Database, actor: SignedInUser, userId: number): Promise<void> {
  const [target] = await db
    .select({ roleId: liveRoleId })
    .from(users)
    .where(and(eq(users.userId, userId), eq(users.userType, 'Web'), isNull(users.deletedAt)));
  if (!target) throw notFound('User');
  assertMayTouchAdministrator(actor, [target.roleId]);
  if (target.roleId !== ADMIN_ROLE_ID) {
    assertHoldsPages(actor, await rolePageUrls(db, target.roleId), 'endSessionsWithPagesNotHeld');
  }
}

export async function listUserSessions(db: Database, actor: SignedInUser, userId: number) {
  await findManagedUser(db, actor, userId);
  return liveSessions(db, userId, actor.jti);
}

export async function endUserSessions(db: Database, actor: SignedInUser, userId: number): Promise<string[]> {
  await findManagedUser(db, actor, userId);
  return endSessions(db, userId, sql`true`);
}

/**
 * Dead sessions of anyone (expired, or from before a password change, deactivation or
 * deletion): their tokens are refused anyway; the periodic sweep removes their rows.
 */
export async function deleteDeadSessions(db: Database): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, sql`now()`),
        sql`${sessions.tokenVersion} <> (select ${users.tokenVersion} from ${users} where ${users.userId} = ${sessions.userId})`,
      ),
    )
    .returning({ sessionId: sessions.sessionId });
  return deleted.length;
}
