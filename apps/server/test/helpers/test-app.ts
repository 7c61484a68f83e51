import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { defaultLabSettings } from '@portal/contract';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { defaultMaxUploadBytes, defaultUploadsPerUser, type Config } from '../../src/config.ts';
import { connectDatabase, type DatabaseConnection } from '../../src/db/client.ts';
import type { Storage } from '../../src/storage/storage.ts';
import { testAdmin, testPasswordHashing } from './constants.ts';

export { testAdmin };

/**
 * A fresh copy of the seeded template database: PGlite in memory, or a new PostgreSQL database
 * (reached through `routeDatabaseUrl`'s address when given, e.g. a proxy a test can cut).
 */
async function freshDatabase(
  routeDatabaseUrl: (url: URL) => URL = (url) => url,
): Promise<{ connection: DatabaseConnection; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
    const testUrl = new URL(url);
    testUrl.pathname = `/${name}`;
    const connection = await connectDatabase({ url: routeDatabaseUrl(testUrl).toString() });
    return {
      connection,
      async drop() {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  // A Blob read from the file as PGlite loads it: no 42 MB copy made first (50 ms a file).
  const connection = await connectDatabase({ loadDataDir: await openAsBlob(inject('templateDump')) });
  return { connection, drop: async () => {} };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /** Signs in and returns the token; throws with the answer if it fails. */
  login(username: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  /** inject() with a bearer token. */
  as(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: Partial<Config> & {
    storage?: Storage;
    routeDatabaseUrl?: (url: URL) => URL;
    /** pino options, e.g. a level and a stream to read what the app logs; silent by default. */
    logger?: AppOptions['logger'];
    /** Live events' timings, e.g. a short session check. */
    events?: AppOptions['events'];
    /** How anonymous refusals are counted, e.g. a short window. */
    audit?: AppOptions['audit'];
    /** How long a refused body is read before its connection closes, e.g. shorter bounds. */
    lingering?: AppOptions['lingering'];
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
  const { storage, routeDatabaseUrl, logger = false, events, audit, lingering, ...configOverrides } = overrides;
  const database = await freshDatabase(routeDatabaseUrl);
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    adminUsername: undefined,
    adminPassword: undefined,
    adminEmail: undefined,
    smtpUrl: undefined,
    redisUrl: undefined,
    backupKey: undefined,
    metrics: undefined,
    s3: undefined,
    jwtSecret: randomBytes(32).toString('hex'),
    tokenTtl: 3600,
    publicUrl: 'http://portal.test',
    mailFrom: 'Portal <portal@test>',
    logLevel: 'silent',
    loginAttemptsPerAddress: 1000,
    loginAttemptsPerAccount: 1000,
    loginAttemptsPerAccountAndAddress: 1000,
    trustProxy: false,
    // No built web app: a folder without one.
    webDist: dataDir,
    orphanFileGraceSeconds: 86_400,
    sweepIntervalSeconds: 600,
    bodyStallTimeoutSeconds: 60,
    bodyTimeoutSeconds: 15,
    maxConnectionsPerAddress: 256,
    shutdownTimeoutSeconds: 30,
    passwordHashing: testPasswordHashing,
    maxUploadBytes: defaultMaxUploadBytes,
    uploadsPerUser: defaultUploadsPerUser,
    jobConcurrency: 1,
    jobLeaseSeconds: 120,
    firstStartSettings: defaultLabSettings,
    uploadBytesPerUser: 2 * (configOverrides.maxUploadBytes ?? defaultMaxUploadBytes),
    ...configOverrides,
  };
  const app = await buildApp({ config, database: database.connection, storage, logger, events, audit, lingering });
  await app.ready();
  let adminToken: string | undefined;
  const testApp: TestApp = {
    app,
    config,
    dataDir,
    async login(username, password) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
      if (response.statusCode !== 200)
        throw new Error(`login ${username} failed: ${response.statusCode} ${response.body}`);
      return response.json<{ token: string }>().token;
    },
    async adminToken() {
      adminToken ??= await testApp.login(testAdmin.username, testAdmin.password);
      return adminToken;
    },
    as(token, options) {
      return app.inject({
        ...options,
        headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
    async close() {
      await app.close();
      await database.connection.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}
