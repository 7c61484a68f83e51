import { config } from 'zod';

/**
 * Zod compiles fast object parsers with `new Function` when it may; the portal's CSP has
 * no 'unsafe-eval', so the probe is refused and the browser logs a CSP issue (Lighthouse:
 * best practices). Imported first by main.tsx, before any schema is made.
 */
config({ jitless: true });
