import { describe, expect, it, vi } from 'vitest';
import { TokenService } from '../src/auth/tokens.ts';

const user = { userId: 7, roleId: -1, userType: 'Web' as const, tokenVersion: 3 };

describe('TokenService', () => {
  it('verifies its own tokens, again from the cache, and refuses them once expired', async () => {
    // The clock set, not waited on: a 1 s token issued late in a second (claims hold whole
    // seconds) would otherwise expire before a slow machine's next line.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-01-01T00:00:00.900Z'));
      const tokens = new TokenService('s'.repeat(40), 1);
      const { token } = await tokens.issue(user);
      expect((await tokens.verify(token))?.sub).toBe('7');
      expect((await tokens.verify(token))?.ver).toBe(3);
      vi.setSystemTime(new Date('2026-01-01T00:00:00.999Z'));
      expect((await tokens.verify(token))?.sub).toBe('7');
      vi.setSystemTime(new Date('2026-01-01T00:00:02.000Z'));
      expect(await tokens.verify(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
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
