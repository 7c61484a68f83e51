import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  forgetStartedProcesses,
  killRecordedProcesses,
  recordStartedProcesses,
} from '../../../../e2e/helpers/started-processes.ts';
import { connectDatabase } from '../../src/db/client.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import { silentLogger } from './constants.ts';
import { pgliteTemplate, testSeedOptions } from './pglite-template.ts';

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
    await prepareDatabase(connection, silentLogger, testSeedOptions);
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
  return { templateDump: await pgliteTemplate(), templateDatabase: '', remove: async () => {} };
}

/**
 * Each server project (vitest.config.ts: `server`, `server-isolated`, `server-units`) runs this in vitest's
 * main process: the first makes the template, the last to finish removes it. The tests that
 * start a real process compile the server first themselves (portal-process.ts
 * `compiledServer`, once per worker), so a run of other files builds nothing.
 */
const shared = globalThis as typeof globalThis & {
  portalTemplate?: { template: Promise<Template>; users: number };
};

export default async function setup(project: TestProject) {
  // Before the workers start: they inherit where to leave the pids of what they start.
  recordStartedProcesses();
  shared.portalTemplate ??= { template: makeTemplate(), users: 0 };
  const entry = shared.portalTemplate;
  entry.users += 1;
  const template = await entry.template;
  project.provide('templateDump', template.templateDump);
  project.provide('templateDatabase', template.templateDatabase);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared.portalTemplate;
    // Anything a test started and did not stop (its worker killed) goes before its database.
    killRecordedProcesses();
    forgetStartedProcesses();
    await template.remove();
  };
}
