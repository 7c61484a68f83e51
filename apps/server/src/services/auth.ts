import { messages, type LoginRequest, type LoginResponse } from '@portal/contract';
import { and, getTableColumns, isNull, sql } from 'drizzle-orm';
import { verifyPassword } from '../auth/passwords.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { liveRoleId, users } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { startSession, type SessionContext } from './sessions.ts';

/**
 * An unknown user, a wrong password and an inactive account all get the same answer;
 * only after a correct password does an inactive doctor learn the account is not active.
 */
export async function login(
  db: Database,
  tokens: TokenService,
  input: LoginRequest,
  context: SessionContext,
): Promise<Omit<LoginResponse, 'profilePic'> & { exp: number; profilePicKey: string | null }> {
  const [user] = await db
    .select({ ...getTableColumns(users), roleId: liveRoleId })
    .from(users)
    .where(and(sql`lower(${users.userName}) = lower(${input.username})`, isNull(users.deletedAt)));
  const isPasswordRight = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !isPasswordRight) throw new AppError(401, messages.loginFailed);
  if (!user.isActive) throw new AppError(403, messages.accountInactive);
  const issued = await startSession(db, tokens, user, context);
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
  };
}
