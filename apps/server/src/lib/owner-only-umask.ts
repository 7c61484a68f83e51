import { ownerOnlyUmask } from './owner-only.ts';

/**
 * Imported first by the server's and the backup command's entry files, before any module can
 * write: PGlite's data files, tus's upload files and pg_dump's output are created by code that
 * takes no mode, so only the process's umask makes them owner-only (lib/owner-only.ts).
 */
process.umask(ownerOnlyUmask);
