import path from 'node:path';

/**
 * The server package's folder (apps/server), for the files it reads beside its code: the
 * database migrations, and through it the repository's web build and data folder.
 * This module stays directly in src/: the build (build.ts) writes every output file directly
 * in dist/, so `..` of this code's folder is apps/server whether Node runs src/ or dist/.
 */
export const serverRoot = path.resolve(import.meta.dirname, '..');

/** The repository's root, two folders above the server package. */
export const repoRoot = path.resolve(serverRoot, '../..');
