import { z } from 'zod';

/**
 * A signed-in session (docs/decisions/sign-in-and-sessions.md § Sessions): one per sign-in, ended by signing
 * out, from another device, or by staff. Its id is the token's `jti`, which is no
 * credential by itself (a token also needs the server's signature).
 */
export const signedInSession = z.object({
  sessionId: z.string(),
  createdAt: z.string().meta({ description: 'When it signed in (ISO 8601)' }),
  lastSeenAt: z.string().meta({ description: 'Its last request, to about a minute (ISO 8601)' }),
  address: z.string().meta({ description: 'The client address of its last request' }),
  userAgent: z.string().meta({ description: 'The User-Agent it signed in with (at most 512 characters)' }),
  device: z.string().meta({ description: "A short label read from the User-Agent: 'Chrome 131 on Windows'" }),
  isCurrent: z.boolean().meta({ description: 'This is the session the request was made with' }),
});
export type SignedInSession = z.infer<typeof signedInSession>;

/** A session id in a path: a UUID, as the server makes them. */
export const sessionIdParams = z.object({
  sessionId: z.uuid({ error: 'Session id is not valid' }),
});

/** How many sessions a request ended. */
export const sessionsEnded = z.object({ message: z.string(), ended: z.number().int() });
export type SessionsEnded = z.infer<typeof sessionsEnded>;
