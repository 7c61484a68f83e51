import { writeFile, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../build.ts';
import { connectDatabase } from '../../src/db/client.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import { PasswordHasher } from '../../src/auth/passwords.ts';
import { silentLogger, testAdmin, testPasswordHashing } from './constants.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDump: string;
    templateDatabase: string;
  }
}

const administrator = { ...testAdmin, passwords: new PasswordHasher(testPasswordHashing) };

interface Template {
  templateDump: string;
  templateDatabase: string;
  remove(): Promise<void>;
}

/**
 * Migrates and seeds one database (the countries and cities take a few seconds) and lets
 * every test file copy it: a PGlite data-dir dump, or a PostgreSQL template database.
 */
async function makeTemplate(): Promise<Template> {
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
    await prepareDatabase(connection, silentLogger, administrator);
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
  const connection = await connectDatabase({});
  await prepareDatabase(connection, silentLogger, administrator);
  const dump = await connection.dumpDataDir!();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'portal-template-'));
  const file = path.join(folder, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await connection.close();
  return { templateDump: file, templateDatabase: '', remove: () => rm(folder, { recursive: true, force: true }) };
}

/**
 * Both server projects (vitest.config.ts: `server` and `server-isolated`) run this in vitest's
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
