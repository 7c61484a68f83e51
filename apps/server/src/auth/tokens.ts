import { createHmac, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { UserType } from './policy.ts';

export interface TokenClaims {
  sub: string;
  jti: string;
  /** The user's token version when issued; a later version refuses this token. */
  ver: number;
  roleId: number;
  userType: UserType;
  exp: number;
  iat: number;
}

/** What an interim token lets its holder do next: prove a second factor, or enrol one. */
export type SecondStep = 'verify' | 'enrol';

export interface InterimClaims {
  sub: string;
  jti: string;
  ver: number;
  step: SecondStep;
  exp: number;
}

/** Interim tokens live minutes: long enough to open an authenticator app or register a passkey. */
export const interimTokenSeconds = 5 * 60;

/** Verified tokens kept so each is checked by signature once (the DB checks still run every request). */
const verifiedCacheSize = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * Interim tokens are signed with a key of their own (derived from the secret), so no
   * session check can ever accept one, whatever its claims say.
   */
  private readonly interimKey: Uint8Array;
  private readonly verified = new Map<string, TokenClaims>();

  private readonly ttlSeconds: number;

  constructor(secret: string, ttlSeconds: number) {
    this.ttlSeconds = ttlSeconds;
    this.key = new TextEncoder().encode(secret);
    this.interimKey = new Uint8Array(
      createHmac('sha256', secret).update('portal second-factor interim token').digest(),
    );
  }

  /** The token a correct password earns when a second step must follow (docs/decisions/second-factor.md § Second factor). */
  async issueInterim(user: { userId: number; tokenVersion: number }, step: SecondStep) {
    const jti = randomUUID();
    const issuedAt = Math.floor(Date.now() / 1000);
    const exp = issuedAt + interimTokenSeconds;
    const token = await new SignJWT({ ver: user.tokenVersion, step, pur: 'second-factor' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.userId))
      .setJti(jti)
      .setIssuedAt(issuedAt)
      .setExpirationTime(exp)
      .sign(this.interimKey);
    return { token, jti, exp };
  }

  /** An interim token signed with the interim key and still in time; anything else is null. */
  async verifyInterim(token: string): Promise<InterimClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.interimKey, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      });
      const isStep = payload.step === 'verify' || payload.step === 'enrol';
      if (payload.pur !== 'second-factor' || !isStep || typeof payload.ver !== 'number') return null;
      if (!Number.isSafeInteger(Number(payload.sub))) return null;
      return payload as unknown as InterimClaims;
    } catch {
      return null;
    }
  }

  async issue(user: { userId: number; roleId: number; userType: UserType; tokenVersion: number }) {
    const jti = randomUUID();
    const issuedAt = Math.floor(Date.now() / 1000);
    const exp = issuedAt + this.ttlSeconds;
    const token = await new SignJWT({ ver: user.tokenVersion, roleId: user.roleId, userType: user.userType })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.userId))
      .setJti(jti)
      .setIssuedAt(issuedAt)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, jti, exp };
  }

  /** Only HS256 with our key, with exp, sub, jti and ver present; anything else is null. */
  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      this.verified.delete(token);
      return null;
    }
    const claims = await this.verifySignature(token);
    if (claims) {
      if (this.verified.size >= verifiedCacheSize) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
    }
    return claims;
  }

  private async verifySignature(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId) || typeof payload.ver !== 'number' || typeof payload.jti !== 'string') {
        return null;
      }
      return payload as unknown as TokenClaims;
    } catch {
      return null;
    }
  }
}
