import {
  messages,
  secondFactorMessages,
  type Locale,
  type LoginRequest,
  type LoginResponse,
  type SecondFactorMethod,
  type SecondFactorRequired,
} from '@portal/contract';
import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { UserType } from '../auth/policy.ts';
import { interimTokenSeconds, type SecondStep, type TokenService } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { liveRoleId, revokedTokens, users } from '../db/schema.ts';
import { AppError, unauthorized } from '../lib/errors.ts';
import { startSession } from './sessions.ts';
import { factorCount, secondFactorState, type SecondFactorState } from './second-factor/factors.ts';

/** What a sign-in answers once every step is done, before the route adds the picture's address and cookie. */
export type SessionAnswer = Omit<LoginResponse, 'profilePic'> & { exp: number; profilePicKey: string | null };

/** The user columns a finished sign-in needs. */
export interface SignInUser {
  userId: number;
  roleId: number;
  userType: UserType;
  tokenVersion: number;
  userName: string;
  createdAt: Date;
  profilePic: string | null;
  locale: Locale;
}

/** Where a sign-in comes from, for the session it starts. */
export interface SignInClient {
  ip: string;
  userAgent?: string;
}

const signInColumns = { ...getTableColumns(users), roleId: liveRoleId };

/**
 * Every way of signing in ends here: password alone, password and second factor, passkey
 * alone. The one place that issues the session, so a change of how sessions are made is
 * one change.
 */
export async function completeSignIn(
  db: Database,
  tokens: TokenService,
  user: SignInUser,
  client: SignInClient,
): Promise<SessionAnswer> {
  const issued = await startSession(db, tokens, user, { ip: client.ip, userAgent: client.userAgent });
  return {
    token: issued.token,
    exp: issued.exp,
    userName: user.userName,
    userId: user.userId,
    userType: user.userType,
    createdAt: user.createdAt.toISOString(),
    profilePicKey: user.profilePic,
    roleId: user.roleId,
    message: messages.loginSucceeded,
    locale: user.locale,
  };
}

/** What comes after a correct password: nothing (the session), the second step, or enrolment. */
function nextStepFor(state: SecondFactorState): SecondStep | null {
  if (factorCount(state) > 0) return 'verify';
  return state.isRequired ? 'enrol' : null;
}

async function secondFactorRequired(
  tokens: TokenService,
  user: SignInUser,
  state: SecondFactorState,
  step: SecondStep,
): Promise<SecondFactorRequired> {
  const interim = await tokens.issueInterim(user, step);
  const methods: SecondFactorMethod[] = [];
  if (step === 'verify') {
    if (state.hasTotp) methods.push('totp');
    if (state.recoveryCodesLeft > 0) methods.push('recovery');
    if (state.passkeys > 0) methods.push('passkey');
  }
  return {
    secondFactor: step,
    interimToken: interim.token,
    methods,
    expiresIn: interimTokenSeconds,
    message: step === 'verify' ? secondFactorMessages.enterSecondFactor : secondFactorMessages.enrolSecondFactor,
  };
}

/**
 * An unknown user, a wrong password and an inactive account all get the same answer;
 * only after a correct password does an inactive doctor learn the account is not active.
 * A user with a second factor, or whose role requires one, gets the interim token instead
 * of the session (docs/decisions/second-factor.md § Second factor).
 */
export async function login(
  db: Database,
  tokens: TokenService,
  passwords: PasswordHasher,
  input: LoginRequest,
  client: SignInClient,
): Promise<SessionAnswer | SecondFactorRequired> {
  const [user] = await db
    .select(signInColumns)
    .from(users)
    .where(and(sql`lower(${users.userName}) = lower(${input.username})`, isNull(users.deletedAt)));
  const isPasswordRight = await passwords.verify(user?.passwordHash, input.password);
  if (!user || !isPasswordRight) throw new AppError(401, messages.loginFailed);
  if (!user.isActive) throw new AppError(403, messages.accountInactive);
  const state = await secondFactorState(db, user.userId);
  const step = nextStepFor(state);
  if (step) return secondFactorRequired(tokens, user, state, step);
  return completeSignIn(db, tokens, user, client);
}

/**
 * The user an interim token is for, checked as a session is: present, active, not signed
 * out everywhere since (token version), the token not used up. Inactive since the password
 * step: 403 as at login.
 */
export async function findInterimUser(
  db: Database,
  claims: { sub: string; ver: number; jti: string },
): Promise<SignInUser> {
  const [user] = await db
    .select({
      ...signInColumns,
      isUsed: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${claims.jti})`,
    })
    .from(users)
    .where(and(eq(users.userId, Number(claims.sub)), eq(users.tokenVersion, claims.ver), isNull(users.deletedAt)));
  if (!user || user.isUsed) throw unauthorized(secondFactorMessages.interimExpired);
  if (!user.isActive) throw new AppError(403, messages.accountInactive);
  return user;
}

/** The user a passkey or an enrolment signs in, checked as a password sign-in checks them. */
export async function findUserToSignIn(db: Database, userId: number): Promise<SignInUser> {
  const [user] = await db
    .select(signInColumns)
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)));
  if (!user) throw unauthorized(secondFactorMessages.passkeyRejected);
  if (!user.isActive) throw new AppError(403, messages.accountInactive);
  return user;
}
