/**
 * The seeded administrator's placeholder address without zod, so the signed-in shell's banner
 * reads it without loading the validation library and the user schemas (docs/decisions/speed.md
 * § On the wire). users.ts re-exports it.
 */

/**
 * The address the administrator is seeded with when ADMIN_EMAIL is not set: it reaches nobody,
 * so the portal asks the administrator for a real one (docs/decisions/accounts.md § Seeds).
 */
export const unsetAdminEmail = 'admin@localhost';
