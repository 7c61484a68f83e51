/**
 * Zod compiles fast object parsers with `new Function` when it may; the portal's CSP has
 * no 'unsafe-eval', so the probe is refused and the browser logs a CSP issue (Lighthouse:
 * best practices). Imported first by main.tsx, before zod is loaded.
 *
 * Zod keeps its configuration on `globalThis.__zod_globalConfig` (shared by every copy of
 * it) and starts from what it finds there, so this sets `jitless` without importing zod:
 * `config({ jitless: true })` would bring 3 KB of zod to every page, also those that load
 * no schema (docs/decisions/speed.md § On the wire). zod-jitless.test.ts checks zod reads it.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;
