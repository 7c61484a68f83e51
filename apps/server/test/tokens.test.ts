import { describe, expect, it } from 'vitest';
import { TokenService } from '../src/auth/tokens.ts';

const user = { userId: 7, roleId: -1, userType: 'Web' as const, tokenVersion: 3 };

describe('TokenService', () => {
  it('verifies its own tokens, again from the cache, and refuses them once expired', async () => {
    const tokens = new TokenService('s'.repeat(40), 1);
    const { token } = await tokens.issue(user);
    expect((await tokens.verify(token))?.sub).toBe('7');
    expect((await tokens.verify(token))?.ver).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token signed with another key, and a tampered one', async () => {
    const ours = new TokenService('a'.repeat(40), 60);
    const theirs = new TokenService('b'.repeat(40), 60);
    const { token } = await theirs.issue(user);
    expect(await ours.verify(token)).toBeNull();
    const own = (await ours.issue(user)).token;
    const [header, payload, signature] = own.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, roleId: 5 })).toString('base64url')}.${signature}`;
    expect(await ours.verify(forged)).toBeNull();
  });
});
