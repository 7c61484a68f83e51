/**
 * Whether this browser can make and use passkeys at all: its own module, so that the sign-in
 * page asks without loading the second step's calls (second-factor.ts, loaded on use).
 */
export const canUsePasskeys = () => typeof window !== 'undefined' && 'PublicKeyCredential' in window;
