import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startPortal } from './portal-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export const e2eAdmin = { username: 'admin', password: 'admin-password' };

/**
 * Runs the real portal as `npm start` does (built web app, one process) on a free port,
 * with a fresh DATA_DIR, and on a fresh PostgreSQL database when DATABASE_URL is set.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `portal_e2e_${process.pid}`;
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
    LOGIN_ATTEMPTS_PER_ADDRESS: '10000',
    LOGIN_ATTEMPTS_PER_ACCOUNT: '10000',
    LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: '10000',
  });
  const { baseUrl } = portal;
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    await portal.stop();
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  };
}
