import { writeFile, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../src/db/client.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import { silentLogger, testAdmin } from './constants.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDump: string;
    templateDatabase: string;
  }
}

/**
 * Migrates and seeds one database (the countries and cities take a few seconds) and lets
 * every test file copy it: a PGlite data-dir dump, or a PostgreSQL template database.
 */
export default async function setup(project: TestProject) {
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
    await prepareDatabase(connection, silentLogger, testAdmin);
    await connection.close();
    project.provide('templateDatabase', name);
    project.provide('templateDump', '');
    return async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const connection = await connectDatabase({});
  await prepareDatabase(connection, silentLogger, testAdmin);
  const dump = await connection.dumpDataDir!();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'portal-template-'));
  const file = path.join(folder, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await connection.close();
  project.provide('templateDump', file);
  project.provide('templateDatabase', '');
  return () => rm(folder, { recursive: true, force: true });
}
