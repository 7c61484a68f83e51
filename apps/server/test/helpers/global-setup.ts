import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../build.ts';
import { connectDatabase } from '../../src/db/client.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import { PasswordHasher } from '../../src/auth/passwords.ts';
import type { SeedOptions } from '../../src/db/seed.ts';
import { repoRoot } from '../../src/server-root.ts';
import { silentLogger, testAdmin, testPasswordHashing } from './constants.ts';
import { testGeography } from './test-geography.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDump: string;
    templateDatabase: string;
  }
}

interface Template {
  templateDump: string;
  templateDatabase: string;
  remove(): Promise<void>;
}

/**
 * Migrates and seeds one database (with the tests' few cities) and lets
 * every test file copy it: a PGlite data-dir dump, or a PostgreSQL template database.
 */
async function makeTemplate(): Promise<Template> {
  const seedOptions: SeedOptions = {
    admin: { ...testAdmin, passwords: new PasswordHasher(testPasswordHashing) },
    geography: testGeography,
  };
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `portal_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${name}`;
    const connection = await connectDatabase({ url: templateUrl.toString() });
    await prepareDatabase(connection, silentLogger, seedOptions);
    await connection.close();
    return {
      templateDump: '',
      templateDatabase: name,
      async remove() {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  return { templateDump: await pgliteTemplate(seedOptions), templateDatabase: '', remove: async () => {} };
}

/** What the PGlite template is made from: a change to any of these makes a new one. */
const templateInputs = [
  'apps/server/drizzle',
  'apps/server/src/db',
  'apps/server/src/auth/passwords.ts',
  'packages/contract/src/pages.ts',
  'apps/server/test/helpers/global-setup.ts',
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
 * renamed, so two runs at once never read half a file.
 */
async function pgliteTemplate(seedOptions: SeedOptions): Promise<string> {
  const folder = path.join(repoRoot, 'node_modules/.cache/portal-test-template');
  const file = path.join(folder, `${await templateKey()}.tar`);
  if (existsSync(file)) return file;
  const connection = await connectDatabase({});
  await prepareDatabase(connection, silentLogger, seedOptions);
  const dump = await connection.dumpDataDir!();
  await connection.close();
  await mkdir(folder, { recursive: true });
  // Older templates go: each is about 40 MB.
  for (const old of await readdir(folder)) await rm(path.join(folder, old), { force: true });
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  return file;
}

/**
 * Each server project (vitest.config.ts: `server`, `server-isolated`, `server-units`) runs this in vitest's
 * main process: the first makes the template and compiles the server (dist/, which the tests
 * that start a real process run, as `npm start` does), the last to finish removes the template.
 */
const shared = globalThis as typeof globalThis & {
  portalTemplate?: { template: Promise<Template>; users: number };
  serverBuild?: Promise<void>;
};

export default async function setup(project: TestProject) {
  shared.portalTemplate ??= { template: makeTemplate(), users: 0 };
  shared.serverBuild ??= buildServer();
  const entry = shared.portalTemplate;
  entry.users += 1;
  await shared.serverBuild;
  const template = await entry.template;
  project.provide('templateDump', template.templateDump);
  project.provide('templateDatabase', template.templateDatabase);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared.portalTemplate;
    await template.remove();
  };
}
