import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the portal writes under DATA_DIR (database, files, mails with their reset links, the
 * JWT secret) and its backup archives are for the account that runs it alone, whatever the
 * umask (docs/decisions/invitations-events-files.md § Owner-only files).
 */
export const ownerOnlyFile = 0o600;
export const ownerOnlyFolder = 0o700;

/** The umask the server and the backup command set first: covers writers that take no mode (PGlite, tus's FileStore, pg_dump). */
export const ownerOnlyUmask = 0o077;

/** A folder, and its missing parents, created owner-only (an existing one keeps its mode). */
export async function ownerOnlyMkdir(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: ownerOnlyFolder });
}

/**
 * At start: DATA_DIR made owner-only, and every entry below it but the stored files tightened
 * (a DATA_DIR written by an older portal, or the database a restore or a copy left, at 0644).
 * The files folder can hold millions: its own mode (0700, under a 0700 DATA_DIR) already keeps
 * others out of what an older portal wrote there, and new files are written 0600. Answers what
 * it may not change (another account's, such as a volume's root owned by root), for a warning:
 * the portal starts all the same, as it did before.
 */
export async function restrictDataDir(dataDir: string, skip: readonly string[] = ['files']): Promise<string[]> {
  const refused: string[] = [];
  await ownerOnlyMkdir(dataDir);
  await tighten(dataDir, refused);
  for (const name of await readdir(dataDir)) {
    const full = path.join(dataDir, name);
    if (skip.includes(name)) await tighten(full, refused);
    else await tightenTree(full, refused);
  }
  return refused;
}

/** Group and others' bits cleared; a symlink or socket is left as it is. */
async function tighten(full: string, refused: string[]): Promise<boolean> {
  const info = await lstat(full).catch(() => undefined);
  if (!info || !(info.isFile() || info.isDirectory())) return false;
  const wanted = info.isDirectory() ? ownerOnlyFolder : info.mode & ownerOnlyFile;
  if ((info.mode & 0o777) !== wanted) {
    await chmod(full, wanted).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPERM') throw error;
      refused.push(full);
    });
  }
  return info.isDirectory();
}

/**
 * A folder and everything in it made owner-only (for writers that set their own modes, as
 * PGlite does); answers what belongs to another account and stayed as it was.
 */
export async function tightenTree(full: string, refused: string[] = []): Promise<string[]> {
  if (await tighten(full, refused)) {
    for (const name of await readdir(full)) await tightenTree(path.join(full, name), refused);
  }
  return refused;
}
