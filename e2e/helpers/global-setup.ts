import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pgliteTemplate, unpackPgliteTemplate } from '../../apps/server/test/helpers/pglite-template.ts';
import { startPortal } from './portal-process.ts';
import { forgetStartedProcesses, killRecordedProcesses, recordStartedProcesses } from './started-processes.ts';

/** One portal of the run: where it answers, and its DATA_DIR (the mail outbox is read from it). */
export interface E2ePortal {
  baseUrl: string;
  dataDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    portals: E2ePortal[];
  }
}

export const e2eAdmin = { username: 'admin', password: 'admin-password' };

/**
 * Runs the real portal as `npm start` does (built web app, one process) on a free port,
 * with a fresh DATA_DIR holding a copy of the API tests' seeded PGlite database (`template`,
 * their few cities instead of a first start's 148,035), or on a fresh PostgreSQL database
 * when DATABASE_URL is set.
 */
async function startE2ePortal(
  index: number,
  template: string | undefined,
): Promise<E2ePortal & { stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-'));
  if (template) await unpackPgliteTemplate(template, dataDir);
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `portal_e2e_${process.pid}_${index}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const portal = await startPortal({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    ADMIN_USERNAME: e2eAdmin.username,
    ADMIN_PASSWORD: e2eAdmin.password,
    // A real-looking address: the administrator is not asked for one on every page (admin-email-banner.tsx).
    ADMIN_EMAIL: 'lab-admin@portal.test',
    LOGIN_ATTEMPTS_PER_ADDRESS: '10000',
    LOGIN_ATTEMPTS_PER_ACCOUNT: '10000',
    LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: '10000',
    // Stopped when the suite ends: a viewing copy still being made is not waited for 30 s.
    SHUTDOWN_TIMEOUT: '5',
  });
  return {
    baseUrl: portal.baseUrl,
    dataDir,
    async stop() {
      await portal.stop();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One portal per worker (E2E_WORKERS, vitest.config.ts): the files one worker runs, one after
 * another, share its portal, as the whole suite once shared one; two workers never share one,
 * so a file never meets another file's requests in flight (e2e/helpers/browser.ts portal()).
 */
export default async function setup(project: TestProject) {
  // Before the workers start: they inherit where to leave the pids of what they start.
  recordStartedProcesses();
  const count = Math.max(1, Number(project.config.maxWorkers) || 1);
  const template = process.env.DATABASE_URL ? undefined : await pgliteTemplate();
  const portals = await Promise.all(Array.from({ length: count }, (_, index) => startE2ePortal(index, template)));
  project.provide(
    'portals',
    portals.map(({ baseUrl, dataDir }) => ({ baseUrl, dataDir })),
  );
  return async () => {
    await Promise.all(portals.map((portal) => portal.stop()));
    // What a test file started and its worker could not stop.
    killRecordedProcesses();
    forgetStartedProcesses();
  };
}
