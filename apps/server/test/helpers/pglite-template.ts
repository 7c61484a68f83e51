import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { PasswordHasher } from '../../src/auth/passwords.ts';
import { connectDatabase } from '../../src/db/client.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import type { SeedOptions } from '../../src/db/seed.ts';
import { repoRoot } from '../../src/server-root.ts';
import { silentLogger, testAdmin, testPasswordHashing } from './constants.ts';
import { testGeography } from './test-geography.ts';

/** The tests' database: the test administrator, hashed cheaply, and the tests' few cities. */
export const testSeedOptions: SeedOptions = {
  // A real-looking address, as ADMIN_EMAIL gives: the web app asks an administrator still at
  // the placeholder for one on every page (admin-email-banner.tsx).
  admin: { ...testAdmin, email: 'admin@portal.test', passwords: new PasswordHasher(testPasswordHashing) },
  geography: testGeography,
};

/** What the PGlite template is made from: a change to any of these makes a new one. */
const templateInputs = [
  'apps/server/drizzle',
  'apps/server/src/db',
  'apps/server/src/auth/passwords.ts',
  'packages/contract/src/pages.ts',
  'apps/server/test/helpers/pglite-template.ts',
  'apps/server/test/helpers/constants.ts',
  'apps/server/test/helpers/test-geography.ts',
  'package-lock.json',
];

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const input of templateInputs) {
    const files = (await stat(path.join(repoRoot, input))).isDirectory()
      ? (await readdir(path.join(repoRoot, input), { recursive: true })).map((file) => path.join(input, file)).sort()
      : [input];
    for (const file of files) {
      const full = path.join(repoRoot, file);
      if (!(await stat(full)).isFile()) continue;
      hash.update(file).update(await readFile(full));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The PGlite template's data directory, made once and kept in node_modules/.cache under a
 * hash of what it is made from: starting PGlite on an empty folder (initdb), migrating and
 * seeding take 3-5 s, about half of running one test file. Written beside its place and
 * renamed, so two runs at once (the API and the browser tests) never read half a file.
 */
export async function pgliteTemplate(): Promise<string> {
  const folder = path.join(repoRoot, 'node_modules/.cache/portal-test-template');
  const file = path.join(folder, `${await templateKey()}.tar`);
  if (existsSync(file)) return file;
  const connection = await connectDatabase({});
  await prepareDatabase(connection, silentLogger, testSeedOptions);
  // Each test file starts a copy: PGlite's startup sets up initdb's 128 MB of shared buffers
  // (zeroed WebAssembly memory); the tests' few rows need far less. 16 MB: 15% of a start.
  await connection.db.execute(sql.raw("alter system set shared_buffers = '16MB'"));
  const dump = await connection.dumpDataDir!();
  await connection.close();
  await mkdir(folder, { recursive: true });
  // Older templates go (each is about 40 MB); not another run's template being written.
  for (const old of await readdir(folder)) {
    if (old.endsWith('.tar') && old !== path.basename(file)) await rm(path.join(folder, old), { force: true });
  }
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  return file;
}

/** `template` (pgliteTemplate's tar of PGDATA) unpacked as the PGlite database of `dataDir`, where the portal opens it. */
export async function unpackPgliteTemplate(template: string, dataDir: string): Promise<void> {
  await mkdir(path.join(dataDir, 'pglite'));
  await promisify(execFile)('tar', ['-xf', template, '-C', path.join(dataDir, 'pglite')]);
}
