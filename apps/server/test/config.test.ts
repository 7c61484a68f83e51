import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledServer, startCommand } from '../../../e2e/helpers/portal-process.ts';
import { readDuration, readSize } from '../src/config-values.ts';
import { ConfigError, loadConfig, parseDuration } from '../src/config.ts';
import { binaryStl, caseFields, caseForm, createCaseDoctor, snapshot, submitCase } from './helpers/case-factories.ts';
import { createTestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { trackProcess } from '../../../e2e/helpers/started-processes.ts';

const secret = 'x'.repeat(40);
const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The one line loadConfig refuses `env` with (JWT_SECRET set unless `env` sets it). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ JWT_SECRET: secret, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('keeps data in the repository root by default, wherever npm runs the server', () => {
    const config = loadConfig({ JWT_SECRET: secret });
    expect(config.dataDir).toBe(path.join(repoRoot, 'data'));
    expect(config.webDist).toBe(path.join(repoRoot, 'apps/web/dist'));
  });

  it('reads a relative DATA_DIR from where the command was typed (INIT_CWD)', () => {
    expect(loadConfig({ JWT_SECRET: secret, DATA_DIR: 'store', INIT_CWD: '/srv/portal' }).dataDir).toBe(
      '/srv/portal/store',
    );
    expect(loadConfig({ JWT_SECRET: secret, DATA_DIR: '/var/portal' }).dataDir).toBe('/var/portal');
  });

  it('has the documented defaults, and treats an empty variable as unset', () => {
    const empty = Object.fromEntries(
      ['PORT', 'HOST', 'TOKEN_TTL', 'MAIL_FROM', 'LOG_LEVEL', 'S3_BUCKET', 'REDIS_URL', 'SMTP_URL', 'TRUST_PROXY'].map(
        (name) => [name, ''],
      ),
    );
    expect(loadConfig({ JWT_SECRET: secret, ...empty })).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      tokenTtl: 8 * 3600,
      publicUrl: 'http://localhost:3000',
      mailFrom: 'Aligner Portal <no-reply@localhost>',
      logLevel: 'info',
      loginAttemptsPerAddress: 30,
      loginAttemptsPerAccountAndAddress: 10,
      loginAttemptsPerAccount: 100,
      trustProxy: false,
      maxUploadBytes: 2e9,
      uploadsPerUser: 100,
      uploadBytesPerUser: 4e9,
      jobConcurrency: 1,
      orphanFileGraceSeconds: 86_400,
      sweepIntervalSeconds: 600,
      bodyStallTimeoutSeconds: 60,
      bodyTimeoutSeconds: 15,
      maxConnectionsPerAddress: 256,
      shutdownTimeoutSeconds: 30,
      passwordHashing: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
      s3: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
    });
  });

  it('reads the documented variables', () => {
    const config = loadConfig({
      JWT_SECRET: secret,
      PORT: '8080',
      HOST: '127.0.0.1',
      TOKEN_TTL: '30m',
      PUBLIC_URL: 'https://portal.example/',
      DATABASE_URL: 'postgres://portal:secret@db.internal:5432/portal',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      MAIL_FROM: 'noreply@portal.example',
      ADMIN_USERNAME: 'chief',
      ADMIN_PASSWORD: 'a long password',
      S3_BUCKET: 'scans',
      S3_ENDPOINT: 'http://minio.internal:9000',
      MAX_UPLOAD_BYTES: '1000',
      UPLOADS_PER_USER: '20',
      UPLOAD_BYTES_PER_USER: '1.5GB',
      LOGIN_ATTEMPTS_PER_ADDRESS: '100',
      LOGIN_ATTEMPTS_PER_ACCOUNT: '5',
      LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: '3',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
      REDIS_URL: 'redis://redis.internal:6379/1',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      tokenTtl: 1800,
      publicUrl: 'https://portal.example',
      databaseUrl: 'postgres://portal:secret@db.internal:5432/portal',
      smtpUrl: 'smtps://user:pass@mail.example:465',
      mailFrom: 'noreply@portal.example',
      adminUsername: 'chief',
      adminPassword: 'a long password',
      maxUploadBytes: 1000,
      uploadsPerUser: 20,
      uploadBytesPerUser: 1.5e9,
      loginAttemptsPerAddress: 100,
      loginAttemptsPerAccountAndAddress: 3,
      loginAttemptsPerAccount: 5,
      trustProxy: '127.0.0.1,10.0.0.0/8',
      redisUrl: 'redis://redis.internal:6379/1',
      logLevel: 'warn',
    });
    // S3-compatible storage (an endpoint) takes any region; us-east-1 when none is given.
    expect(config.s3).toEqual({
      bucket: 'scans',
      endpoint: 'http://minio.internal:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    expect(loadConfig({ JWT_SECRET: secret, S3_BUCKET: 'scans', S3_REGION: 'eu-central-1' }).s3).toMatchObject({
      bucket: 'scans',
      region: 'eu-central-1',
    });
    expect(loadConfig({ JWT_SECRET: secret, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ JWT_SECRET: secret, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ JWT_SECRET: secret, PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it('reads durations: plain seconds, s, m, h, d', () => {
    expect(readDuration('3600')).toBe(3600);
    expect(readDuration('45s')).toBe(45);
    expect(readDuration('30m')).toBe(1800);
    expect(readDuration('8h')).toBe(28_800);
    expect(readDuration('1d')).toBe(86_400);
    expect(readDuration(' 24h ')).toBe(86_400);
    for (const bad of ['soon', '8 hours', '-1', '1.5h', '', 'h', '99999999999999999999d']) {
      expect(readDuration(bad), bad).toBeUndefined();
    }
    for (const [value, seconds] of [
      ['3600', 3600],
      ['30m', 1800],
      ['8h', 28_800],
      ['1d', 86_400],
    ] as const) {
      expect(loadConfig({ JWT_SECRET: secret, TOKEN_TTL: value }).tokenTtl).toBe(seconds);
    }
    expect(parseDuration('8h')).toBe(28_800);
    expect(() => parseDuration('soon')).toThrow(/TOKEN_TTL/);
  });

  it('reads sizes: plain bytes, B, KB/MB/GB/TB (powers of 1000), KiB/MiB/GiB/TiB (powers of 1024)', () => {
    const sizes: [string, number][] = [
      ['1048576', 1_048_576],
      ['512B', 512],
      ['512KB', 512_000],
      ['100MB', 100_000_000],
      ['1MB', 1_000_000],
      ['2GB', 2_000_000_000],
      ['1TB', 1e12],
      ['1.5GB', 1_500_000_000],
      ['100 mb', 100_000_000],
      ['512KiB', 524_288],
      ['1MiB', 1_048_576],
      ['2GiB', 2_147_483_648],
    ];
    for (const [value, bytes] of sizes) {
      expect(readSize(value), value).toBe(bytes);
      expect(loadConfig({ JWT_SECRET: secret, MAX_UPLOAD_BYTES: value }).maxUploadBytes, value).toBe(bytes);
    }
    for (const bad of ['lots', '1.5', '1PB', 'MB', '-1MB', '1 M B', '1e6']) expect(readSize(bad), bad).toBeUndefined();
  });

  it('sweeps orphaned case files older than a day unless ORPHAN_FILE_GRACE says otherwise', () => {
    expect(loadConfig({ JWT_SECRET: secret }).orphanFileGraceSeconds).toBe(86_400);
    expect(loadConfig({ JWT_SECRET: secret, ORPHAN_FILE_GRACE: '0' }).orphanFileGraceSeconds).toBe(0);
    expect(loadConfig({ JWT_SECRET: secret, ORPHAN_FILE_GRACE: '24h' }).orphanFileGraceSeconds).toBe(86_400);
    expect(loadConfig({ JWT_SECRET: secret, ORPHAN_FILE_GRACE: '30m' }).orphanFileGraceSeconds).toBe(1800);
  });

  it('sweeps what killed uploads left every 10 minutes unless SWEEP_INTERVAL says otherwise', () => {
    expect(loadConfig({ JWT_SECRET: secret }).sweepIntervalSeconds).toBe(600);
    expect(loadConfig({ JWT_SECRET: secret, SWEEP_INTERVAL: '2' }).sweepIntervalSeconds).toBe(2);
    expect(loadConfig({ JWT_SECRET: secret, SWEEP_INTERVAL: '1h' }).sweepIntervalSeconds).toBe(3600);
  });

  it('closes stalled bodies after 60 s and ends a shutdown after 30 s unless BODY_STALL_TIMEOUT and SHUTDOWN_TIMEOUT say otherwise', () => {
    expect(loadConfig({ JWT_SECRET: secret })).toMatchObject({
      bodyStallTimeoutSeconds: 60,
      shutdownTimeoutSeconds: 30,
    });
    expect(loadConfig({ JWT_SECRET: secret, BODY_STALL_TIMEOUT: '5m', SHUTDOWN_TIMEOUT: '45s' })).toMatchObject({
      bodyStallTimeoutSeconds: 300,
      shutdownTimeoutSeconds: 45,
    });
  });

  it('gives small bodies 15 s and each address 256 connections unless BODY_TIMEOUT and MAX_CONNECTIONS_PER_ADDRESS say otherwise (0: no cap)', () => {
    expect(loadConfig({ JWT_SECRET: secret, BODY_TIMEOUT: '1m', MAX_CONNECTIONS_PER_ADDRESS: '40' })).toMatchObject({
      bodyTimeoutSeconds: 60,
      maxConnectionsPerAddress: 40,
    });
    expect(loadConfig({ JWT_SECRET: secret, MAX_CONNECTIONS_PER_ADDRESS: '0' }).maxConnectionsPerAddress).toBe(0);
  });

  it('gives cases 2, 10 and 7 days in new, in progress and dispatched unless TURNAROUND_DAYS says otherwise', () => {
    expect(loadConfig({ JWT_SECRET: secret }).firstStartSettings.turnaroundDays).toEqual({
      new: 2,
      inprogress: 10,
      dispatched: 7,
    });
    expect(
      loadConfig({ JWT_SECRET: secret, TURNAROUND_DAYS: ' new = 1, delivered=30 ' }).firstStartSettings.turnaroundDays,
    ).toEqual({ new: 1, delivered: 30 });
  });

  it("makes the lab's first settings from PLAN_STEP_LIMIT_MM, PLAN_STEP_LIMIT_DEGREES and MAIL_DIGEST_HOUR", () => {
    const env = {
      JWT_SECRET: secret,
      PLAN_STEP_LIMIT_MM: '0.3',
      PLAN_STEP_LIMIT_DEGREES: '1.5',
      MAIL_DIGEST_HOUR: '22',
    };
    expect(loadConfig(env).firstStartSettings).toMatchObject({
      planStepLimits: { stepMm: 0.3, stepDeg: 1.5 },
      digestHourUtc: 22,
      offTrackThresholds: { offsetMm: 0.5, angleDeg: 2 },
    });
  });
});

describe('metrics (METRICS_TOKEN, METRICS_PORT, METRICS_HOST)', () => {
  const metricsOf = (env: Record<string, string>) => loadConfig({ JWT_SECRET: secret, ...env }).metrics;
  const metricsToken = 'm'.repeat(32);

  it('are off when neither METRICS_TOKEN nor METRICS_PORT is set; a port of their own listens on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(metricsOf({ METRICS_TOKEN: '', METRICS_PORT: '', METRICS_HOST: '' })).toBeUndefined();
    expect(metricsOf({ METRICS_TOKEN: metricsToken })).toEqual({
      token: metricsToken,
      port: undefined,
      host: '127.0.0.1',
    });
    expect(metricsOf({ METRICS_PORT: '9464' })).toEqual({ token: undefined, port: 9464, host: '127.0.0.1' });
    expect(metricsOf({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: metricsToken })).toEqual({
      token: metricsToken,
      port: 9464,
      host: '10.0.0.5',
    });
  });

  it.each([
    [
      { METRICS_TOKEN: 'short' },
      'METRICS_TOKEN must be at least 32 characters without spaces (a bearer token for GET /metrics) (got 5 characters)',
    ],
    [
      { METRICS_TOKEN: `${'m'.repeat(20)} ${'m'.repeat(20)}` },
      'METRICS_TOKEN must be at least 32 characters without spaces (a bearer token for GET /metrics) (got 41 characters)',
    ],
    [{ METRICS_PORT: '0' }, 'METRICS_PORT must be a whole number from 1 to 65535, other than PORT (got "0")'],
    [{ METRICS_PORT: '3000' }, 'METRICS_PORT must differ from PORT: /metrics gets a port of its own (got "3000")'],
    [
      { PORT: '8080', METRICS_PORT: '8080' },
      'METRICS_PORT must differ from PORT: /metrics gets a port of its own (got "8080")',
    ],
    [
      { METRICS_HOST: '127.0.0.1' },
      'METRICS_HOST is set but METRICS_PORT is not: set METRICS_PORT too, or unset it (got "127.0.0.1")',
    ],
    [
      { METRICS_PORT: '9464', METRICS_HOST: 'http://x' },
      'METRICS_HOST must be an address or host name to listen on, such as 127.0.0.1, 10.0.0.5 or ::1 (got "http://x")',
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(`Invalid configuration: ${message}`);
  });
});

describe('password hashing cost', () => {
  const hashing = (env: Record<string, string>) => loadConfig({ JWT_SECRET: secret, ...env }).passwordHashing;

  it("accepts each of OWASP's argon2id settings and anything stronger", () => {
    for (const [memory, time] of [
      ['47104', '1'],
      ['19456', '2'],
      ['12288', '3'],
      ['9216', '4'],
      ['7168', '5'],
      ['7168', '10'],
      ['65536', '1'],
      ['19456', '3'],
    ] as const) {
      expect(hashing({ PASSWORD_HASH_MEMORY_KIB: memory, PASSWORD_HASH_TIME_COST: time })).toEqual({
        memoryCost: Number(memory),
        timeCost: Number(time),
        parallelism: 1,
      });
    }
    expect(hashing({ PASSWORD_HASH_TIME_COST: '3' }).timeCost).toBe(3);
    expect(hashing({ PASSWORD_HASH_PARALLELISM: '4' }).parallelism).toBe(4);
  });

  const floor =
    "(OWASP's argon2id minimum: 47104 KiB at time cost 1, 19456 KiB at time cost 2, 12288 KiB at time cost 3, " +
    '9216 KiB at time cost 4, 7168 KiB at time cost 5 or more)';
  const refusals: [Record<string, string>, string][] = [
    [
      { PASSWORD_HASH_MEMORY_KIB: '19455' },
      `PASSWORD_HASH_MEMORY_KIB must be at least 19456 when PASSWORD_HASH_TIME_COST is 2 ${floor} (got "19455")`,
    ],
    [
      { PASSWORD_HASH_TIME_COST: '1' },
      `PASSWORD_HASH_MEMORY_KIB must be at least 47104 when PASSWORD_HASH_TIME_COST is 1 ${floor}`,
    ],
    [
      { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1' },
      `PASSWORD_HASH_MEMORY_KIB must be at least 47104 when PASSWORD_HASH_TIME_COST is 1 ${floor} (got "1024")`,
    ],
    [
      { PASSWORD_HASH_MEMORY_KIB: '7167', PASSWORD_HASH_TIME_COST: '100' },
      `PASSWORD_HASH_MEMORY_KIB must be at least 7168 when PASSWORD_HASH_TIME_COST is 100 ${floor} (got "7167")`,
    ],
    [
      { PASSWORD_HASH_MEMORY_KIB: '19MiB' },
      'PASSWORD_HASH_MEMORY_KIB must be a whole number of KiB, such as 19456 (19 MiB) (got "19MiB")',
    ],
    [
      { PASSWORD_HASH_TIME_COST: '0' },
      'PASSWORD_HASH_TIME_COST must be a whole number of at least 1 (argon2id passes over the memory) (got "0")',
    ],
    [{ PASSWORD_HASH_PARALLELISM: '0' }, 'PASSWORD_HASH_PARALLELISM must be a whole number from 1 to 255 (got "0")'],
  ];

  it.each(refusals)('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(`Invalid configuration: ${message}`);
  });
});

describe('a refused configuration is one line naming the variable and what it accepts', () => {
  const refusals: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535 (got "abc")'],
    [{ PORT: '0' }, 'PORT must be a whole number from 1 to 65535 (got "0")'],
    [{ PORT: '65536' }, 'PORT must be a whole number from 1 to 65535 (got "65536")'],
    [{ PORT: '80.5' }, 'PORT must be a whole number from 1 to 65535 (got "80.5")'],
    [
      { HOST: 'http://example.com' },
      'HOST must be an address or host name to listen on, such as 0.0.0.0, 127.0.0.1, :: or localhost (got "http://example.com")',
    ],
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/portal' },
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database (got "mysql://***@db/portal")',
    ],
    [
      { DATABASE_URL: 'db.internal' },
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database (got "db.internal")',
    ],
    [{ JWT_SECRET: 'too short' }, 'JWT_SECRET must be at least 32 characters (got 9 characters)'],
    [{ BACKUP_KEY: 'secret' }, 'BACKUP_KEY must be at least 32 characters (got 6 characters)'],
    [
      { TOKEN_TTL: 'soon' },
      'TOKEN_TTL must be a duration of at least 1 second, such as 3600 (seconds), 30m, 8h or 1d (got "soon")',
    ],
    [
      { TOKEN_TTL: '0' },
      'TOKEN_TTL must be a duration of at least 1 second, such as 3600 (seconds), 30m, 8h or 1d (got "0")',
    ],
    [{ ADMIN_USERNAME: 'al' }, 'ADMIN_USERNAME must be 3 to 50 characters (got "al")'],
    [
      { ADMIN_PASSWORD: 'abc' },
      'ADMIN_PASSWORD must be 12 to 128 characters, not only spaces, and not a common or leaked password (got 3 characters)',
    ],
    [
      { ADMIN_PASSWORD: 'Password2024!' },
      'ADMIN_PASSWORD must be 12 to 128 characters, not only spaces, and not a common or leaked password (got 13 characters)',
    ],
    [
      { PUBLIC_URL: 'portal.example.com' },
      'PUBLIC_URL must be an http:// or https:// URL such as https://portal.example.com (got "portal.example.com")',
    ],
    [
      { SMTP_URL: 'mail.example:587' },
      'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example:587 (got "mail.example:587")',
    ],
    [
      { SMTP_URL: 'http://user:pass@mail.example' },
      'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example:587 (got "http://***@mail.example")',
    ],
    [
      { MAIL_FROM: 'Portal' },
      'MAIL_FROM must be an address such as no-reply@example.com or Aligner Portal <no-reply@example.com> (got "Portal")',
    ],
    [
      { S3_BUCKET: 'My_Bucket', S3_REGION: 'eu-central-1' },
      'S3_BUCKET must be an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens (got "My_Bucket")',
    ],
    [
      { S3_BUCKET: 'scans' },
      "S3_REGION must be set to the bucket's region (such as eu-central-1) when S3_BUCKET is on AWS (no S3_ENDPOINT)",
    ],
    [
      { S3_BUCKET: 'scans', S3_ENDPOINT: 'minio:9000' },
      'S3_ENDPOINT must be an http:// or https:// URL such as http://minio.internal:9000 (got "minio:9000")',
    ],
    [
      { S3_BUCKET: 'scans', S3_REGION: 'eu central' },
      'S3_REGION must be a region name such as eu-central-1 (got "eu central")',
    ],
    [
      { S3_BUCKET: 'scans', S3_REGION: 'eu-central-1', S3_ACCESS_KEY_ID: 'AKIA0000' },
      'S3_SECRET_ACCESS_KEY must be set when S3_ACCESS_KEY_ID is',
    ],
    [
      { S3_ENDPOINT: 'http://minio.internal:9000' },
      'S3_ENDPOINT is set but S3_BUCKET is not: set S3_BUCKET too, or unset it (got "http://minio.internal:9000")',
    ],
    [
      { MAX_UPLOAD_BYTES: 'lots' },
      'MAX_UPLOAD_BYTES must be a size of at least 1 byte, such as 500MB, 2GB, 512KB, 1GiB or 1048576 (bytes) (got "lots")',
    ],
    [
      { MAX_UPLOAD_BYTES: '0' },
      'MAX_UPLOAD_BYTES must be a size of at least 1 byte, such as 500MB, 2GB, 512KB, 1GiB or 1048576 (bytes) (got "0")',
    ],
    [{ UPLOADS_PER_USER: '0' }, 'UPLOADS_PER_USER must be a whole number of at least 1 (got "0")'],
    [
      { UPLOAD_BYTES_PER_USER: 'a lot' },
      'UPLOAD_BYTES_PER_USER must be a size of at least 1 byte, such as 500MB, 4GB, 1GiB or 1048576 (bytes) (got "a lot")',
    ],
    [
      { SWEEP_INTERVAL: '0' },
      'SWEEP_INTERVAL must be a duration of at least 1 second, such as 600 (seconds), 10m or 1h (got "0")',
    ],
    [
      { SWEEP_INTERVAL: '30d' },
      'SWEEP_INTERVAL must be a duration of at least 1 second, such as 600 (seconds), 10m or 1h (got "30d")',
    ],
    [
      { BODY_STALL_TIMEOUT: '0' },
      'BODY_STALL_TIMEOUT must be a duration of at least 1 second, such as 60 (seconds), 90s or 5m (got "0")',
    ],
    [
      { BODY_TIMEOUT: '0' },
      'BODY_TIMEOUT must be a duration of at least 1 second, such as 15 (seconds), 30s or 1m (got "0")',
    ],
    ...['new=2,unknown=3', 'new=0', 'new=2,new=3', 'new:2'].map((value): [Record<string, string>, string] => [
      { TURNAROUND_DAYS: value },
      `TURNAROUND_DAYS must be status=days pairs separated by commas, days from 1 to 365, such as new=2,inprogress=10 (got "${value}")`,
    ]),
    [
      { MAX_CONNECTIONS_PER_ADDRESS: 'lots' },
      'MAX_CONNECTIONS_PER_ADDRESS must be a whole number: 0 (no cap) or the most connections one address may hold (got "lots")',
    ],
    [
      { SHUTDOWN_TIMEOUT: 'soon' },
      'SHUTDOWN_TIMEOUT must be a duration of at least 1 second, such as 30 (seconds), 45s or 2m (got "soon")',
    ],
    [
      { ORPHAN_FILE_GRACE: 'later' },
      'ORPHAN_FILE_GRACE must be a duration such as 86400 (seconds), 30m, 24h or 1d (got "later")',
    ],
    [
      { LOGIN_ATTEMPTS_PER_ADDRESS: 'many' },
      'LOGIN_ATTEMPTS_PER_ADDRESS must be a whole number of at least 1 (got "many")',
    ],
    [{ LOGIN_ATTEMPTS_PER_ACCOUNT: '0' }, 'LOGIN_ATTEMPTS_PER_ACCOUNT must be a whole number of at least 1 (got "0")'],
    [
      { LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: '-1' },
      'LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS must be a whole number of at least 1 (got "-1")',
    ],
    [
      { TRUST_PROXY: 'yes' },
      'TRUST_PROXY must be true, false, or comma-separated proxy addresses or CIDR ranges such as 10.0.0.1,10.1.0.0/16 (got "yes")',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      'TRUST_PROXY must be true, false, or comma-separated proxy addresses or CIDR ranges such as 10.0.0.1,10.1.0.0/16 (got "10.0.0.0/33")',
    ],
    [
      { REDIS_URL: 'redis.internal:6379' },
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://redis.internal:6379/0 (got "redis.internal:6379")',
    ],
    [
      { REDIS_URL: 'redis://:secret@redis.internal:6379/cache' },
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://redis.internal:6379/0 (got "redis://***@redis.internal:6379/cache")',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    ],
    [{ DATA_DIR: 'a\0b' }, 'DATA_DIR must be a folder path (got "a\\u0000b")'],
    [{ WEB_DIST: 'a\0b' }, 'WEB_DIST must be a folder path (got "a\\u0000b")'],
  ];

  it.each(refusals)('%j', (env, message) => {
    const line = refusal(env);
    expect(line).toBe(`Invalid configuration: ${message}`);
    expect(line).not.toContain('\n');
  });

  it('names every refused variable on the same line', () => {
    expect(refusal({ PORT: 'abc', LOG_LEVEL: 'loud' })).toBe(
      'Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc"); ' +
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
  });

  it('never repeats a secret, a password in a URL or a line break', () => {
    const line = refusal({
      JWT_SECRET: 'hunter2',
      DATABASE_URL: 'mysql://root:hunter2@db/portal',
      REDIS_URL: 'redis://:hunter2@r/x',
      LOG_LEVEL: 'a\nb',
    });
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('\n');
  });
});

describe('MAX_UPLOAD_BYTES with a unit', () => {
  it('MAX_UPLOAD_BYTES=1KB refuses a larger submission with 413 and keeps nothing', async () => {
    const { maxUploadBytes } = loadConfig({ JWT_SECRET: secret, MAX_UPLOAD_BYTES: '1KB' });
    expect(maxUploadBytes).toBe(1000);
    const limited = await createTestApp({ maxUploadBytes });
    try {
      const doctor = await createCaseDoctor(limited);
      const before = await snapshot(limited);
      const tooLarge = await submitCase(
        limited,
        doctor.token,
        caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: binaryStl(40), name: 'a.stl' } }),
      );
      expect(tooLarge.statusCode, tooLarge.body).toBe(413);
      expect(await snapshot(limited)).toEqual(before);
      const fits = await submitCase(
        limited,
        doctor.token,
        caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: binaryStl(10), name: 'a.stl' } }),
      );
      expect(fits.statusCode, fits.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('upload limits by default (issue 20)', () => {
  it('a portal with the default configuration answers Upload-Length 100000000000000000000 with a plain 413, no SQL', async () => {
    const { maxUploadBytes, uploadsPerUser, uploadBytesPerUser } = loadConfig({ JWT_SECRET: secret });
    const portal = await createTestApp({ maxUploadBytes, uploadsPerUser, uploadBytesPerUser });
    try {
      const doctor = await createCaseDoctor(portal);
      const answer = await portal.as(doctor.token, {
        method: 'POST',
        url: '/api/uploads/tus',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-length': '100000000000000000000',
          'upload-metadata': `filename ${Buffer.from('scan.stl').toString('base64')}`,
        },
      });
      expect(answer.statusCode, answer.body).toBe(413);
      expect(answer.json()).toEqual({ message: 'The upload is larger than the server allows' });
    } finally {
      await portal.close();
    }
  });
});

describe('the real process', () => {
  beforeAll(() => compiledServer());
  // The Node the project pins (npm scripts run it too); the running one if it is missing.
  const pinnedNode = path.join(repoRoot, 'node_modules/.bin/node');
  const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;

  function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(node, [startCommand.entry], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Killed with its group if the test fails before it exits (e2e/helpers/started-processes.ts).
        detached: true,
      });
      trackProcess(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), scaled(60_000));
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  it('PORT=abc: exits non-zero with the one line on stderr, no stack trace', { timeout: scaled(90_000) }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-config-'));
    try {
      const result = await start({ PORT: 'abc', DATA_DIR: dataDir });
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stderr).toBe('Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")\n');
      expect(result.stdout).toBe('');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
