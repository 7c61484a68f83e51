import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { maxPasswordLength, minPasswordLength, password } from '@portal/contract';
import { z } from 'zod';
import { isCommonPassword } from './auth/common-passwords.ts';
import { repoRoot } from './server-root.ts';

/** Everything the server reads from its environment (README "Configuration"). */
export interface Config {
  port: number;
  /** HOST: the interface to listen on; 0.0.0.0 when unset. */
  host?: string;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret: string;
  /** Token lifetime in seconds. */
  tokenTtl: number;
  adminUsername?: string;
  adminPassword?: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  logLevel: string;
  /** Sign-in attempts allowed per address per minute. */
  loginAttemptsPerAddress: number;
  /** Failed sign-ins per 15 minutes for one username from one address, and from all addresses together. */
  loginAttemptsPerAccountAndAddress: number;
  loginAttemptsPerAccount: number;
  /** Trust X-Forwarded-For from a load balancer: TRUST_PROXY=true, or its addresses/CIDRs. */
  trustProxy: boolean | string;
  /** REDIS_URL: where sign-in attempts are counted, so that every process counts the same ones. */
  redisUrl?: string;
  /** Serve the built web app from this folder when it exists. */
  webDist?: string;
  /** MAX_UPLOAD_BYTES: the most file bytes one case submission, message, plan or resumable upload may carry. */
  maxUploadBytes: number;
  /** UPLOADS_PER_USER: resumable uploads one user may hold that no case has used yet (drafts' included). */
  uploadsPerUser: number;
  /** UPLOAD_BYTES_PER_USER: the declared bytes of those uploads together. */
  uploadBytesPerUser: number;
  /** ORPHAN_FILE_GRACE: stored case files no row references are swept once older than this (seconds). */
  orphanFileGraceSeconds: number;
  /** SWEEP_INTERVAL: seconds between sweeps of what killed uploads left (one process at a time). */
  sweepIntervalSeconds: number;
  /** BODY_STALL_TIMEOUT: a request body that brings no new byte for this long has its connection closed (seconds). */
  bodyStallTimeoutSeconds: number;
  /** BODY_TIMEOUT: a body that is not a streamed upload must arrive within this, plus a second per 64 KiB it declares (seconds). */
  bodyTimeoutSeconds: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: open connections one client address may hold; 0 for no cap. */
  maxConnectionsPerAddress: number;
  /** SHUTDOWN_TIMEOUT: after SIGTERM/SIGINT, requests in flight get this long before every connection is closed and the process exits (seconds). */
  shutdownTimeoutSeconds: number;
  /** S3-compatible object storage instead of DATA_DIR/files, when S3_BUCKET is set. */
  s3?: { bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string };
}

/** MAX_UPLOAD_BYTES when unset: a full set of scans and photos, with room to spare (issue 20). */
export const defaultMaxUploadBytes = 2e9;
/** UPLOADS_PER_USER when unset: two full case forms' files (4 scans, 11 photos and 30 other files each). */
export const defaultUploadsPerUser = 100;

/**
 * A refused environment. Its message is one line naming every bad variable and what it
 * accepts; main.ts prints it alone (no stack trace) and exits non-zero.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

// ---------------------------------------------------------------------------------------
// Units

const durationUnits: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** '8h', '30m', '1d', '45s', '3600' (seconds) -> seconds; undefined when it is none of these. */
export function readDuration(value: string): number | undefined {
  const match = /^(\d+)\s*([smhd]?)$/i.exec(value.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * (durationUnits[(match[2] || 's').toLowerCase()] ?? 1);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/** '8h', '30m', '3600' -> seconds; `name` is the variable it came from, for the error. */
export function parseDuration(value: string, name = 'TOKEN_TTL'): number {
  const seconds = readDuration(value);
  if (seconds === undefined) throw new ConfigError(`${name} "${value}" is not a duration like 8h, 30m or 3600`);
  return seconds;
}

/** KB, MB, GB, TB are powers of 1000; KiB, MiB, GiB, TiB powers of 1024; B or no unit: bytes. */
const sizeUnits: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** '100MB', '2GB', '512KB', '1.5GiB', '1048576' -> bytes; undefined when it is none of these. */
export function readSize(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  if (!match) return undefined;
  const unit = sizeUnits[(match[2] || 'b').toLowerCase()];
  if (unit === undefined) return undefined;
  // Plain bytes must be whole; "1.5GB" is 1,500,000,000.
  if (unit === 1 && match[1]!.includes('.')) return undefined;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

// ---------------------------------------------------------------------------------------
// One schema for the whole environment

/** What each variable accepts, as the error sentence says it after the variable's name. */
const accepts = {
  PORT: 'must be a whole number from 1 to 65535',
  HOST: 'must be an address or host name to listen on, such as 0.0.0.0, 127.0.0.1, :: or localhost',
  DATA_DIR: 'must be a folder path',
  DATABASE_URL: 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database',
  JWT_SECRET: 'must be at least 32 characters',
  TOKEN_TTL: 'must be a duration of at least 1 second, such as 3600 (seconds), 30m, 8h or 1d',
  ADMIN_USERNAME: 'must be 3 to 50 characters',
  ADMIN_PASSWORD: `must be ${minPasswordLength} to ${maxPasswordLength} characters, not only spaces, and not a common or leaked password`,
  PUBLIC_URL: 'must be an http:// or https:// URL such as https://portal.example.com',
  SMTP_URL: 'must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example:587',
  MAIL_FROM: 'must be an address such as no-reply@example.com or Aligner Portal <no-reply@example.com>',
  S3_BUCKET: 'must be an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
  S3_ENDPOINT: 'must be an http:// or https:// URL such as http://minio.internal:9000',
  S3_REGION: 'must be a region name such as eu-central-1',
  S3_ACCESS_KEY_ID: 'must be set together with S3_SECRET_ACCESS_KEY',
  S3_SECRET_ACCESS_KEY: 'must be set together with S3_ACCESS_KEY_ID',
  MAX_UPLOAD_BYTES: 'must be a size of at least 1 byte, such as 500MB, 2GB, 512KB, 1GiB or 1048576 (bytes)',
  UPLOADS_PER_USER: 'must be a whole number of at least 1',
  UPLOAD_BYTES_PER_USER: 'must be a size of at least 1 byte, such as 500MB, 4GB, 1GiB or 1048576 (bytes)',
  ORPHAN_FILE_GRACE: 'must be a duration such as 86400 (seconds), 30m, 24h or 1d',
  SWEEP_INTERVAL: 'must be a duration of at least 1 second, such as 600 (seconds), 10m or 1h',
  BODY_STALL_TIMEOUT: 'must be a duration of at least 1 second, such as 60 (seconds), 90s or 5m',
  BODY_TIMEOUT: 'must be a duration of at least 1 second, such as 15 (seconds), 30s or 1m',
  MAX_CONNECTIONS_PER_ADDRESS: 'must be a whole number: 0 (no cap) or the most connections one address may hold',
  SHUTDOWN_TIMEOUT: 'must be a duration of at least 1 second, such as 30 (seconds), 45s or 2m',
  LOGIN_ATTEMPTS_PER_ADDRESS: 'must be a whole number of at least 1',
  LOGIN_ATTEMPTS_PER_ACCOUNT: 'must be a whole number of at least 1',
  LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: 'must be a whole number of at least 1',
  TRUST_PROXY: 'must be true, false, or comma-separated proxy addresses or CIDR ranges such as 10.0.0.1,10.1.0.0/16',
  REDIS_URL: 'must be a redis:// or rediss:// URL such as redis://redis.internal:6379/0',
  LOG_LEVEL: 'must be one of fatal, error, warn, info, debug, trace, silent',
  WEB_DIST: 'must be a folder path',
} as const;

type VariableName = keyof typeof accepts;

/** Never repeated in an error, not even in part. */
const secretVariables = new Set<string>(['JWT_SECRET', 'ADMIN_PASSWORD', 'S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID']);
/** URLs that may carry a password: repeated with their user information hidden. */
const credentialUrlVariables = new Set<string>(['DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'S3_ENDPOINT']);

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A URL with one of `protocols` ('postgres:'), or undefined. */
function readUrl(value: string, protocols: string[]): URL | undefined {
  if (/\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

function readWholeNumber(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (!/^\d+$/.test(value.trim())) return undefined;
  const number = Number(value.trim());
  return number >= min && number <= max ? number : undefined;
}

const hostName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function readHost(value: string): string | undefined {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return isIP(bare) || hostName.test(value) ? bare : undefined;
}

/** One entry of TRUST_PROXY's list, as proxy-addr (Fastify's trustProxy) reads it. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // 10.0.0.0/255.0.0.0
}

function readTrustProxy(value: string): boolean | string | undefined {
  const trimmed = value.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  const entries = trimmed.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries.join(',') : undefined;
}

const mailbox = /^[^\s@<>]+@[^\s@<>]+$/;

function readMailFrom(value: string): string | undefined {
  const trimmed = value.trim();
  if (mailbox.test(trimmed)) return trimmed;
  const named = /^([^<>]*)<\s*([^<>]*?)\s*>$/.exec(trimmed);
  return named && mailbox.test(named[2]!) ? trimmed : undefined;
}

/**
 * One environment variable: unset and empty both mean "not set" (undefined); otherwise
 * `read` returns the value, or undefined to refuse it with the variable's `accepts` sentence.
 */
function variable<T>(name: VariableName, read: (value: string) => T | undefined) {
  return z
    .string()
    .optional()
    .transform((value, context): T | undefined => {
      if (value === undefined || value === '') return undefined;
      const result = read(value);
      if (result === undefined) {
        context.addIssue({ code: 'custom', message: accepts[name] });
        return z.NEVER;
      }
      return result;
    });
}

const text = (value: string) => value;
const readPositiveDuration = (value: string) => {
  const seconds = readDuration(value);
  return seconds !== undefined && seconds >= 1 ? seconds : undefined;
};
const readPositiveSize = (value: string) => {
  const bytes = readSize(value);
  return bytes !== undefined && bytes >= 1 ? bytes : undefined;
};
const folder = (value: string) => (value.includes('\0') ? undefined : value);

export const environmentSchema = z
  .object({
    PORT: variable('PORT', (value) => readWholeNumber(value, 1, 65_535)),
    HOST: variable('HOST', readHost),
    DATA_DIR: variable('DATA_DIR', folder),
    DATABASE_URL: variable('DATABASE_URL', (value) =>
      readUrl(value, ['postgres:', 'postgresql:']) ? value : undefined,
    ),
    JWT_SECRET: variable('JWT_SECRET', (value) => (value.length >= 32 ? value : undefined)),
    TOKEN_TTL: variable('TOKEN_TTL', (value) => {
      const seconds = readDuration(value);
      return seconds !== undefined && seconds >= 1 ? seconds : undefined;
    }),
    // The same rules as the contract's username and password fields.
    ADMIN_USERNAME: variable('ADMIN_USERNAME', (value) => {
      const trimmed = value.trim();
      return trimmed.length >= 3 && trimmed.length <= 50 ? trimmed : undefined;
    }),
    ADMIN_PASSWORD: variable('ADMIN_PASSWORD', (value) =>
      password.safeParse(value).success && !isCommonPassword(value) ? value : undefined,
    ),
    PUBLIC_URL: variable('PUBLIC_URL', (value) => {
      const url = readUrl(value.trim(), ['http:', 'https:']);
      return url && !url.search && !url.hash ? value.trim().replace(/\/+$/, '') : undefined;
    }),
    SMTP_URL: variable('SMTP_URL', (value) => (readUrl(value, ['smtp:', 'smtps:']) ? value : undefined)),
    MAIL_FROM: variable('MAIL_FROM', readMailFrom),
    S3_BUCKET: variable('S3_BUCKET', (value) =>
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value) && !value.includes('..') ? value : undefined,
    ),
    S3_ENDPOINT: variable('S3_ENDPOINT', (value) => (readUrl(value, ['http:', 'https:']) ? value : undefined)),
    S3_REGION: variable('S3_REGION', (value) => (/^[a-z0-9][a-z0-9-]*$/i.test(value) ? value : undefined)),
    S3_ACCESS_KEY_ID: variable('S3_ACCESS_KEY_ID', text),
    S3_SECRET_ACCESS_KEY: variable('S3_SECRET_ACCESS_KEY', text),
    MAX_UPLOAD_BYTES: variable('MAX_UPLOAD_BYTES', readPositiveSize),
    UPLOADS_PER_USER: variable('UPLOADS_PER_USER', (value) => readWholeNumber(value, 1)),
    UPLOAD_BYTES_PER_USER: variable('UPLOAD_BYTES_PER_USER', readPositiveSize),
    ORPHAN_FILE_GRACE: variable('ORPHAN_FILE_GRACE', readDuration),
    SWEEP_INTERVAL: variable('SWEEP_INTERVAL', (value) => {
      const seconds = readDuration(value);
      // setInterval's limit (2^31 - 1 ms, about 24 days) would otherwise fire at once, over and over.
      return seconds !== undefined && seconds >= 1 && seconds <= 86_400 * 24 ? seconds : undefined;
    }),
    BODY_STALL_TIMEOUT: variable('BODY_STALL_TIMEOUT', readPositiveDuration),
    BODY_TIMEOUT: variable('BODY_TIMEOUT', readPositiveDuration),
    MAX_CONNECTIONS_PER_ADDRESS: variable('MAX_CONNECTIONS_PER_ADDRESS', (value) => readWholeNumber(value, 0)),
    SHUTDOWN_TIMEOUT: variable('SHUTDOWN_TIMEOUT', readPositiveDuration),
    LOGIN_ATTEMPTS_PER_ADDRESS: variable('LOGIN_ATTEMPTS_PER_ADDRESS', (value) => readWholeNumber(value, 1)),
    LOGIN_ATTEMPTS_PER_ACCOUNT: variable('LOGIN_ATTEMPTS_PER_ACCOUNT', (value) => readWholeNumber(value, 1)),
    LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: variable('LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS', (value) =>
      readWholeNumber(value, 1),
    ),
    TRUST_PROXY: variable('TRUST_PROXY', readTrustProxy),
    REDIS_URL: variable('REDIS_URL', (value) => {
      const url = readUrl(value, ['redis:', 'rediss:']);
      // The path, when there is one, is the database number.
      return url && /^\/?(\d+)?$/.test(url.pathname) ? value : undefined;
    }),
    LOG_LEVEL: variable('LOG_LEVEL', (value) => (logLevels.includes(value.trim()) ? value.trim() : undefined)),
    WEB_DIST: variable('WEB_DIST', folder),
  })
  .superRefine((env, context) => {
    const refuse = (name: VariableName, message: string) => context.addIssue({ code: 'custom', path: [name], message });
    // Settings for a bucket that is not there: files would silently stay in DATA_DIR/files.
    if (!env.S3_BUCKET) {
      for (const name of ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (env[name] !== undefined) refuse(name, 'is set but S3_BUCKET is not: set S3_BUCKET too, or unset it');
      }
      return;
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing = env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
      refuse(
        missing,
        `must be set when ${missing === 'S3_ACCESS_KEY_ID' ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} is`,
      );
    }
    // AWS itself needs the bucket's own region; S3-compatible services (S3_ENDPOINT) take any.
    if (!env.S3_ENDPOINT && !env.S3_REGION) {
      refuse(
        'S3_REGION',
        "must be set to the bucket's region (such as eu-central-1) when S3_BUCKET is on AWS (no S3_ENDPOINT)",
      );
    }
  });

/** How a refused value is repeated in the error (` (got ...)`): secrets never, URLs without their user information. */
function shown(name: string, value: string | undefined): string {
  if (value === undefined || value === '') return '';
  if (secretVariables.has(name)) return ` (got ${value.length} characters)`;
  const visible = credentialUrlVariables.has(name)
    ? value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, (_match, scheme: string | undefined) => `${scheme ?? ''}***@`)
    : value;
  return ` (got ${JSON.stringify(visible.length > 80 ? `${visible.slice(0, 77)}...` : visible)})`;
}

/** The one-line message for a refused environment: `Invalid configuration: PORT must be ... (got "abc")`. */
function describeIssues(issues: z.core.$ZodIssue[], env: NodeJS.ProcessEnv): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'environment');
    if (seen.has(name)) continue;
    seen.add(name);
    const message = issue.code === 'custom' ? issue.message : (accepts[name as VariableName] ?? issue.message);
    parts.push(`${name} ${message}${shown(name, env[name])}`);
  }
  return `Invalid configuration: ${parts.join('; ')}`;
}

/** JWT_SECRET, or one generated once and kept in DATA_DIR so restarts keep sessions. */
function loadJwtSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    try {
      mkdirSync(dataDir, { recursive: true });
      const secret = randomBytes(48).toString('base64url');
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ConfigError(
        `Invalid configuration: DATA_DIR must be a folder the portal can write to (got "${dataDir}": ${code})`,
      );
    }
  }
}

/**
 * Reads and checks the whole environment at once. Throws a ConfigError whose message is
 * one line naming each refused variable and what it accepts.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error.issues, env));
  const values = parsed.data;
  const port = values.PORT ?? 3000;
  const maxUploadBytes = values.MAX_UPLOAD_BYTES ?? defaultMaxUploadBytes;
  // `npm start` runs in apps/server; INIT_CWD is where the person typed it (the repo root).
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = values.DATA_DIR ? path.resolve(base, values.DATA_DIR) : path.join(repoRoot, 'data');
  return {
    port,
    host: values.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: values.DATABASE_URL,
    jwtSecret: loadJwtSecret(dataDir, values.JWT_SECRET),
    tokenTtl: values.TOKEN_TTL ?? 8 * 3600,
    adminUsername: values.ADMIN_USERNAME,
    adminPassword: values.ADMIN_PASSWORD,
    publicUrl: values.PUBLIC_URL ?? `http://localhost:${port}`,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM ?? 'Aligner Portal <no-reply@localhost>',
    logLevel: values.LOG_LEVEL ?? 'info',
    loginAttemptsPerAddress: values.LOGIN_ATTEMPTS_PER_ADDRESS ?? 30,
    loginAttemptsPerAccountAndAddress: values.LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS ?? 10,
    loginAttemptsPerAccount: values.LOGIN_ATTEMPTS_PER_ACCOUNT ?? 100,
    trustProxy: values.TRUST_PROXY ?? false,
    redisUrl: values.REDIS_URL,
    webDist: values.WEB_DIST ? path.resolve(base, values.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    maxUploadBytes,
    uploadsPerUser: values.UPLOADS_PER_USER ?? defaultUploadsPerUser,
    // Room for a second submission's files while the first one's are still held.
    uploadBytesPerUser: values.UPLOAD_BYTES_PER_USER ?? 2 * maxUploadBytes,
    // A day: longer than any upload still in progress on another process sharing the storage.
    orphanFileGraceSeconds: values.ORPHAN_FILE_GRACE ?? 86_400,
    sweepIntervalSeconds: values.SWEEP_INTERVAL ?? 600,
    bodyStallTimeoutSeconds: values.BODY_STALL_TIMEOUT ?? 60,
    bodyTimeoutSeconds: values.BODY_TIMEOUT ?? 15,
    // Room for a clinic's office behind one address: some 40 browsers at 6 connections each.
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS ?? 256,
    shutdownTimeoutSeconds: values.SHUTDOWN_TIMEOUT ?? 30,
    s3: values.S3_BUCKET
      ? {
          bucket: values.S3_BUCKET,
          endpoint: values.S3_ENDPOINT,
          region: values.S3_REGION ?? 'us-east-1',
          accessKeyId: values.S3_ACCESS_KEY_ID,
          secretAccessKey: values.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
  };
}
