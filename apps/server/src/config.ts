import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  caseStatuses,
  defaultLabSettings,
  email,
  maxPasswordLength,
  minPasswordLength,
  password,
  type LabSettings,
  type TurnaroundTargets,
} from '@portal/contract';
import { z } from 'zod';
import { isCommonPassword } from './auth/common-passwords.ts';
import {
  atLeastOne,
  folder,
  logLevels,
  readDecimal,
  readTurnaround,
  readDuration,
  readHost,
  readMailFrom,
  readPositiveDuration,
  readPositiveSize,
  readTrustProxy,
  readUrl,
  readWholeNumber,
  text,
} from './config-values.ts';
import { ownerOnlyFolder } from './lib/owner-only.ts';
import { repoRoot } from './server-root.ts';

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

/** '8h', '30m', '3600' -> seconds; `name` is the variable it came from, for the error. */
export function parseDuration(value: string, name = 'TOKEN_TTL'): number {
  const seconds = readDuration(value);
  if (seconds === undefined) throw new ConfigError(`${name} "${value}" is not a duration like 8h, 30m or 3600`);
  return seconds;
}

/** How a refused value is repeated in the error: secrets by their length only, URLs without their user information. */
type Shown = 'value' | 'length' | 'withoutCredentials';

/**
 * What docs/configuration.md says of a variable (`npm run docs:config` writes it from here):
 * its default as a person reads it, and what it means and accepts. Variables that belong
 * together (the S3 settings) share one entry, written on the first of them.
 */
export type VariableDoc = { default?: string; meaning: string } | { inRowOf: string };

interface VariableOptions<T> {
  doc: VariableDoc;
  /** What the variable accepts, as the error sentence says it after the variable's name. */
  accepts: string;
  /** The value when the variable is unset or empty. */
  fallback?: T;
  shown?: Shown;
}

/**
 * One environment variable: unset and empty both mean "not set" (its fallback); otherwise
 * `read` returns the value, or undefined to refuse it with the `accepts` sentence.
 */
function variable<T>(
  read: (value: string) => T | undefined,
  options: VariableOptions<T> & { fallback: T },
): z.ZodType<T>;
function variable<T>(read: (value: string) => T | undefined, options: VariableOptions<T>): z.ZodType<T | undefined>;
function variable<T>(
  read: (value: string) => T | undefined,
  { doc, accepts, fallback, shown = 'value' }: VariableOptions<T>,
) {
  return z
    .string({ error: accepts })
    .optional()
    .transform((value, context): T | undefined => {
      if (value === undefined || value === '') return fallback;
      const result = read(value);
      if (result === undefined) {
        context.addIssue({ code: 'custom', message: accepts });
        return z.NEVER;
      }
      return result;
    })
    .meta({ shown, doc });
}

/**
 * OWASP's equivalent argon2id settings (Password Storage Cheat Sheet, one lane): the least
 * memory (KiB) for each time cost. A setting as strong as one of them is accepted.
 */
const argon2idMinimums = [
  { timeCost: 1, memoryKib: 47_104 },
  { timeCost: 2, memoryKib: 19_456 },
  { timeCost: 3, memoryKib: 12_288 },
  { timeCost: 4, memoryKib: 9216 },
  { timeCost: 5, memoryKib: 7168 },
];
/** The least memory OWASP accepts at `timeCost`: the lowest of the rows whose time cost it reaches. */
const leastArgon2idMemory = (timeCost: number) =>
  Math.min(...argon2idMinimums.filter((row) => row.timeCost <= timeCost).map((row) => row.memoryKib));

/** Every variable the server reads, its rules, its default and its entry in docs/configuration.md. */
export const variables = z.object({
  PORT: variable((value) => readWholeNumber(value, 1, 65_535), {
    doc: { default: '3000', meaning: 'HTTP port: a whole number from 1 to 65535' },
    accepts: 'must be a whole number from 1 to 65535',
    fallback: 3000,
  }),
  HOST: variable(readHost, {
    doc: { default: '0.0.0.0', meaning: 'interface to listen on: an IPv4 or IPv6 address or a host name' },
    accepts: 'must be an address or host name to listen on, such as 0.0.0.0, 127.0.0.1, :: or localhost',
    fallback: '0.0.0.0',
  }),
  DATA_DIR: variable(folder, {
    doc: {
      default: '`./data`',
      meaning:
        'PGlite files, uploaded files, the mail outbox, the generated JWT secret, plan ZIPs while they are read (`tmp/`); must be writable',
    },
    accepts: 'must be a folder path',
  }),
  DATABASE_URL: variable((value) => (readUrl(value, ['postgres:', 'postgresql:']) ? value : undefined), {
    doc: { meaning: 'PostgreSQL instead of embedded PGlite: a `postgres://` or `postgresql://` URL' },
    accepts: 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database',
    shown: 'withoutCredentials',
  }),
  JWT_SECRET: variable((value) => (value.length >= 32 ? value : undefined), {
    doc: {
      default: 'generated once into `DATA_DIR/jwt-secret`',
      meaning: 'HS256 signing key, at least 32 characters; set it when several processes serve the portal',
    },
    accepts: 'must be at least 32 characters',
    shown: 'length',
  }),
  TOKEN_TTL: variable(readPositiveDuration, {
    doc: {
      default: '`8h`',
      meaning:
        'session lifetime, at least 1 second: plain seconds (`3600`) or a number with `s`, `m`, `h`, `d` (`30m`, `8h`, `1d`)',
    },
    accepts: 'must be a duration of at least 1 second, such as 3600 (seconds), 30m, 8h or 1d',
    fallback: 8 * 3600,
  }),
  // The same rules as the contract's username and password fields.
  ADMIN_USERNAME: variable(
    (value) => {
      const trimmed = value.trim();
      return trimmed.length >= 3 && trimmed.length <= 50 ? trimmed : undefined;
    },
    {
      doc: {
        default: '`admin`, generated',
        meaning:
          'the administrator (role -1) seeded when none exists; 3–50 and 12–128 characters, the password not on the bundled list of common or leaked passwords',
      },
      accepts: 'must be 3 to 50 characters',
    },
  ),
  ADMIN_PASSWORD: variable(
    (value) => (password.safeParse(value).success && !isCommonPassword(value) ? value : undefined),
    {
      doc: { inRowOf: 'ADMIN_USERNAME' },
      accepts: `must be ${minPasswordLength} to ${maxPasswordLength} characters, not only spaces, and not a common or leaked password`,
      shown: 'length',
    },
  ),
  ADMIN_EMAIL: variable((value) => (email.safeParse(value).success ? value.trim() : undefined), {
    doc: {
      default: 'asked at first sign-in',
      meaning:
        "the seeded administrator's e-mail address (new-case mails go there); unset, the administrator is asked for a real one when they sign in",
    },
    accepts: 'must be an e-mail address',
  }),
  // Its default follows PORT (the transform below).
  PUBLIC_URL: variable(
    (value) => {
      const url = readUrl(value.trim(), ['http:', 'https:']);
      return url && !url.search && !url.hash ? value.trim().replace(/\/+$/, '') : undefined;
    },
    {
      doc: {
        default: '`http://localhost:$PORT`',
        meaning:
          "the portal's address, used in e-mailed links (`/reset-password?token=`) and as the passkeys' relying party (its host name; passkeys need `https://` or `localhost`): an `http://` or `https://` URL; `https://` also sends HSTS on every answer",
      },
      accepts: 'must be an http:// or https:// URL such as https://portal.example.com',
    },
  ),
  SMTP_URL: variable((value) => (readUrl(value, ['smtp:', 'smtps:']) ? value : undefined), {
    doc: {
      meaning:
        'an `smtp://` or `smtps://` URL, e.g. `smtp://user:pass@mail.example:587`; without it mail is written as `.eml` files to `DATA_DIR/outbox`',
    },
    accepts: 'must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example:587',
    shown: 'withoutCredentials',
  }),
  MAIL_FROM: variable(readMailFrom, {
    doc: {
      default: '`Aligner Portal <no-reply@localhost>`',
      meaning: 'sender address: `name@host` or `Name <name@host>`',
    },
    accepts: 'must be an address such as no-reply@example.com or Aligner Portal <no-reply@example.com>',
    fallback: 'Aligner Portal <no-reply@localhost>',
  }),
  S3_BUCKET: variable(
    (value) => (/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value) && !value.includes('..') ? value : undefined),
    {
      doc: {
        meaning:
          'store uploaded files in S3-compatible object storage instead of `DATA_DIR/files`. On AWS (no `S3_ENDPOINT`) `S3_REGION` is required; with an `http(s)://` `S3_ENDPOINT` (MinIO and the like) it defaults to `us-east-1`, and objects are addressed path-style (`endpoint/bucket/key`, not `bucket.endpoint/key`). The two keys go together; the other `S3_*` need `S3_BUCKET`',
      },
      accepts: 'must be an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    },
  ),
  S3_ENDPOINT: variable((value) => (readUrl(value, ['http:', 'https:']) ? value : undefined), {
    doc: { inRowOf: 'S3_BUCKET' },
    accepts: 'must be an http:// or https:// URL such as http://minio.internal:9000',
    shown: 'withoutCredentials',
  }),
  S3_REGION: variable((value) => (/^[a-z0-9][a-z0-9-]*$/i.test(value) ? value : undefined), {
    doc: { inRowOf: 'S3_BUCKET' },
    accepts: 'must be a region name such as eu-central-1',
  }),
  S3_ACCESS_KEY_ID: variable(text, {
    doc: { inRowOf: 'S3_BUCKET' },
    accepts: 'must be set together with S3_SECRET_ACCESS_KEY',
    shown: 'length',
  }),
  S3_SECRET_ACCESS_KEY: variable(text, {
    doc: { inRowOf: 'S3_BUCKET' },
    accepts: 'must be set together with S3_ACCESS_KEY_ID',
    shown: 'length',
  }),
  MAX_UPLOAD_BYTES: variable(readPositiveSize, {
    doc: {
      default: '`2GB`',
      meaning:
        'ceiling for one case submission, message, treatment plan or resumable upload (413 past it): plain bytes or a size with a unit, `KB`/`MB`/`GB`/`TB` powers of 1000, `KiB`/`MiB`/`GiB`/`TiB` powers of 1024 (`500MB`, `2GB`, `1.5GiB`)',
    },
    accepts: 'must be a size of at least 1 byte, such as 500MB, 2GB, 512KB, 1GiB or 1048576 (bytes)',
    fallback: defaultMaxUploadBytes,
  }),
  UPLOADS_PER_USER: variable(atLeastOne, {
    doc: {
      default: '100',
      meaning:
        "resumable uploads one user may hold that no case has used yet, drafts' included (429 for the next): a whole number of at least 1",
    },
    accepts: 'must be a whole number of at least 1',
    fallback: defaultUploadsPerUser,
  }),
  // Background jobs (a mesh's viewing derivative) at once in each process: each takes a core.
  JOB_CONCURRENCY: variable(atLeastOne, {
    doc: {
      default: '1',
      meaning:
        "background jobs (a mesh's viewing derivative) one process runs at once, each on a core of its own: a whole number of at least 1",
    },
    accepts: 'must be a whole number of at least 1',
    fallback: 1,
  }),
  // How long a job's claim holds without its process renewing it (every third of it): a job of a process that died runs again after this.
  JOB_LEASE_SECONDS: variable((value) => readWholeNumber(value, 3), {
    doc: {
      default: '120',
      meaning:
        'how long a claimed background job is held without its process renewing the claim (it renews every third of it): the job of a process that died runs again after this; a whole number of seconds, at least 3',
    },
    accepts: 'must be a whole number of seconds, at least 3',
    fallback: 120,
  }),
  // The lab's settings from here on are the Settings screen's (docs/decisions/settings.md): these four set only their first values.
  // The lab's limit on one tooth's move from one stage to the next: a tooth over it is flagged in the plan's movement table.
  PLAN_STEP_LIMIT_MM: variable((value) => readDecimal(value, 0.01, 5), {
    doc: {
      default: '0.25',
      meaning:
        "the lab's limit on one tooth's move from one plan stage to the next: a tooth whose centre moves more in a stage is flagged in the plan's movement table; millimetres, 0.01 to 5. Read at the first start only: from then on the administrator sets it on the Settings screen, as the three below",
    },
    accepts: 'must be a number of millimetres from 0.01 to 5, such as 0.25',
    fallback: 0.25,
  }),
  // The hour (UTC) each day's e-mail digest goes out (docs/decisions/mail.md § E-mail preferences).
  MAIL_DIGEST_HOUR: variable((value) => readWholeNumber(value, 0, 23), {
    doc: {
      default: '7',
      meaning:
        'the hour, in UTC, of the daily digest: the one mail that lists the case mails each user chose to get as a digest (their e-mail preferences); a whole hour from 0 to 23. First start only (Settings screen)',
    },
    accepts: 'must be a whole hour from 0 to 23 (UTC)',
    fallback: 7,
  }),
  // The lab's turnaround: days a case may stay in a status before it is overdue.
  TURNAROUND_DAYS: variable((value) => readTurnaround(value, caseStatuses), {
    doc: {
      default: 'new=2,inprogress=10,dispatched=7',
      meaning:
        "the lab's turnaround targets: days a case may stay in each status before it is overdue (its due date on the list and the case page, the Overdue filter), as `status=days` pairs; a status not named has no target; days 1 to 365. First start only (Settings screen)",
    },
    accepts: 'must be status=days pairs separated by commas, days from 1 to 365, such as new=2,inprogress=10',
    fallback: { new: 2, inprogress: 10, dispatched: 7 },
  }),
  PLAN_STEP_LIMIT_DEGREES: variable((value) => readDecimal(value, 0.1, 45), {
    doc: {
      default: '2',
      meaning:
        "the same limit on a tooth's rotation in one stage; degrees, 0.1 to 45. First start only (Settings screen)",
    },
    accepts: 'must be a number of degrees from 0.1 to 45, such as 2',
    fallback: 2,
  }),
  // Its default follows MAX_UPLOAD_BYTES (the transform below).
  UPLOAD_BYTES_PER_USER: variable(readPositiveSize, {
    doc: {
      default: 'twice `MAX_UPLOAD_BYTES`',
      meaning:
        'the declared sizes of those uploads together (413 for one that would pass it): a size as for `MAX_UPLOAD_BYTES`',
    },
    accepts: 'must be a size of at least 1 byte, such as 500MB, 4GB, 1GiB or 1048576 (bytes)',
  }),
  // A day: longer than any upload still in progress on another process sharing the storage.
  ORPHAN_FILE_GRACE: variable(readDuration, {
    doc: {
      default: '`24h`',
      meaning:
        'stored case, message and plan files no row refers to, and unfinished S3 multipart uploads (a process killed mid-upload), are deleted by the sweep once this old (at a start on PGlite with files in `DATA_DIR`, whatever their age); the same forms as `TOKEN_TTL`, `0` allowed',
    },
    accepts: 'must be a duration such as 86400 (seconds), 30m, 24h or 1d',
    fallback: 86_400,
  }),
  SWEEP_INTERVAL: variable(
    (value) => {
      const seconds = readDuration(value);
      // setInterval's limit (2^31 - 1 ms, about 24 days) would otherwise fire at once, over and over.
      return seconds !== undefined && seconds >= 1 && seconds <= 86_400 * 24 ? seconds : undefined;
    },
    {
      doc: {
        default: '`10m`',
        meaning:
          "how often that sweep, and the expiry of resumable uploads (24 hours; a draft's a week after its last save), runs (one process at a time, by a PostgreSQL advisory lock): a duration from 1 second to 24 days",
      },
      accepts: 'must be a duration of at least 1 second, such as 600 (seconds), 10m or 1h',
      fallback: 600,
    },
  ),
  BODY_STALL_TIMEOUT: variable(readPositiveDuration, {
    doc: {
      default: '`60s`',
      meaning:
        'a request body that brings no new byte for this long has its connection closed (a slow upload that keeps moving is never cut); a duration of at least 1 second, the same forms as `TOKEN_TTL`',
    },
    accepts: 'must be a duration of at least 1 second, such as 60 (seconds), 90s or 5m',
    fallback: 60,
  }),
  BODY_TIMEOUT: variable(readPositiveDuration, {
    doc: {
      default: '`15s`',
      meaning:
        'a body that is not a streamed upload (JSON, the user and doctor forms) must be in within this, plus a second per 64 KiB it declares, or its connection is closed; streamed uploads keep only `BODY_STALL_TIMEOUT`; a duration of at least 1 second',
    },
    accepts: 'must be a duration of at least 1 second, such as 15 (seconds), 30s or 1m',
    fallback: 15,
  }),
  // Room for a clinic's office behind one address: some 40 browsers at 6 connections each.
  MAX_CONNECTIONS_PER_ADDRESS: variable((value) => readWholeNumber(value, 0), {
    doc: {
      default: '256',
      meaning:
        "open connections one client address may hold (counted by the socket's address, IPv6 by its /64); more are closed at once. The proxies `TRUST_PROXY` names are not capped (the proxy caps per client, as `deploy/nginx.conf` does; with `TRUST_PROXY=true` no address is); `0` turns the cap off",
    },
    accepts: 'must be a whole number: 0 (no cap) or the most connections one address may hold',
    fallback: 256,
  }),
  SHUTDOWN_TIMEOUT: variable(readPositiveDuration, {
    doc: {
      default: '`30s`',
      meaning:
        'after SIGTERM or SIGINT, requests in flight get this long; then every connection is closed and the process exits; a duration of at least 1 second',
    },
    accepts: 'must be a duration of at least 1 second, such as 30 (seconds), 45s or 2m',
    fallback: 30,
  }),
  // Per minute; the two per-account limits per 15 minutes.
  LOGIN_ATTEMPTS_PER_ADDRESS: variable(atLeastOne, {
    doc: {
      default: '30 per minute',
      meaning:
        'sign-in attempts from one address before 429, and the same again for registrations and password resets together: a whole number of at least 1',
    },
    accepts: 'must be a whole number of at least 1',
    fallback: 30,
  }),
  LOGIN_ATTEMPTS_PER_ACCOUNT: variable(atLeastOne, {
    doc: {
      default: '100 per 15 minutes',
      meaning:
        'failed sign-ins for one username from all addresses together before 429, against spraying: a whole number of at least 1',
    },
    accepts: 'must be a whole number of at least 1',
    fallback: 100,
  }),
  LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS: variable(atLeastOne, {
    doc: {
      default: '10 per 15 minutes',
      meaning:
        'failed sign-ins for one username from one address before 429 (the owner elsewhere still signs in): a whole number of at least 1',
    },
    accepts: 'must be a whole number of at least 1',
    fallback: 10,
  }),
  TRUST_PROXY: variable(readTrustProxy, {
    doc: {
      default: 'off',
      meaning:
        "`true`, `false`, or the load balancer's addresses and CIDR ranges, comma-separated, to read the client address from `X-Forwarded-For`, and from `X-Forwarded-Proto: https` that the request came over TLS (answered with HSTS)",
    },
    accepts: 'must be true, false, or comma-separated proxy addresses or CIDR ranges such as 10.0.0.1,10.1.0.0/16',
    fallback: false,
  }),
  REDIS_URL: variable(
    (value) => {
      const url = readUrl(value, ['redis:', 'rediss:']);
      // The path, when there is one, is the database number.
      return url && /^\/?(\d+)?$/.test(url.pathname) ? value : undefined;
    },
    {
      doc: {
        meaning:
          'a `redis://` or `rediss://` URL, e.g. `redis://redis.internal:6379/0`: sign-in attempts counted there and live events carried through it, shared by every process',
      },
      accepts: 'must be a redis:// or rediss:// URL such as redis://redis.internal:6379/0',
      shown: 'withoutCredentials',
    },
  ),
  // The operator's /metrics (plugins/metrics.ts): a bearer token on the main port, or a port of its own.
  METRICS_TOKEN: variable((value) => (value.length >= 32 && !/\s/.test(value) ? value : undefined), {
    doc: {
      meaning:
        '`GET /metrics` (Prometheus, [Operations](operations.md#metrics)) on the main port to this bearer token only: at least 32 characters without spaces. With `METRICS_PORT` set too, the metrics port asks for it as well',
    },
    accepts: 'must be at least 32 characters without spaces (a bearer token for GET /metrics)',
    shown: 'length',
  }),
  METRICS_PORT: variable((value) => readWholeNumber(value, 1, 65_535), {
    doc: {
      meaning:
        '`GET /metrics` on a port of its own instead (the main port answers 404): a whole number from 1 to 65535, not `PORT`. With neither variable metrics are off',
    },
    accepts: 'must be a whole number from 1 to 65535, other than PORT',
  }),
  METRICS_HOST: variable(readHost, {
    doc: {
      default: '127.0.0.1',
      meaning:
        'the interface `METRICS_PORT` listens on (only with `METRICS_PORT`): an address or host name; one beyond this machine should come with `METRICS_TOKEN`',
    },
    accepts: 'must be an address or host name to listen on, such as 127.0.0.1, 10.0.0.5 or ::1',
  }),
  LOG_LEVEL: variable((value) => (logLevels.includes(value.trim()) ? value.trim() : undefined), {
    doc: {
      default: '`info`',
      meaning: 'pino log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
    },
    accepts: `must be one of ${logLevels.join(', ')}`,
    fallback: 'info',
  }),
  WEB_DIST: variable(folder, {
    doc: {
      default: '`apps/web/dist`',
      meaning: 'where `npm run build` (and so `npm start`) writes the built web app and the portal serves it from',
    },
    accepts: 'must be a folder path',
  }),
  // OWASP's second argon2id profile; lower only as far as the floor checked below.
  PASSWORD_HASH_MEMORY_KIB: variable((value) => readWholeNumber(value, 1, 2 ** 32 - 1), {
    doc: {
      default: '19456, 2, 1',
      meaning:
        "argon2id's cost for passwords set from now on (a stored hash keeps its own and still verifies): memory in KiB, passes, lanes (1 to 255). Never below OWASP's argon2id minimum: memory of at least 47104 KiB at time cost 1, 19456 at 2, 12288 at 3, 9216 at 4, 7168 at 5 or more",
    },
    accepts: 'must be a whole number of KiB, such as 19456 (19 MiB)',
    fallback: 19_456,
  }),
  PASSWORD_HASH_TIME_COST: variable((value) => readWholeNumber(value, 1, 2 ** 32 - 1), {
    doc: { inRowOf: 'PASSWORD_HASH_MEMORY_KIB' },
    accepts: 'must be a whole number of at least 1 (argon2id passes over the memory)',
    fallback: 2,
  }),
  // Lanes hashed in parallel; more than the machine's cores only queue.
  PASSWORD_HASH_PARALLELISM: variable((value) => readWholeNumber(value, 1, 255), {
    doc: { inRowOf: 'PASSWORD_HASH_MEMORY_KIB' },
    accepts: 'must be a whole number from 1 to 255',
    fallback: 1,
  }),
  // A passphrase or random key; scrypt makes each archive's AES-256 key from it (backup/encryption.ts).
  BACKUP_KEY: variable((value) => (value.length >= 32 ? value : undefined), {
    doc: {
      meaning:
        'encrypts the archives of `npm run backup` (AES-256-GCM, a key per archive made from it by scrypt) and is needed to restore them: at least 32 characters, e.g. `openssl rand -base64 32`; keep it apart from the archives',
    },
    accepts: 'must be at least 32 characters',
    shown: 'length',
  }),
  // `npm start` runs in apps/server; INIT_CWD is where the person typed it (the repo root).
  INIT_CWD: z.string().optional(),
});

type VariableName = Exclude<keyof typeof variables.shape, 'INIT_CWD'>;

/** The environment, checked as a whole and shaped as the server uses it. */
export const environmentSchema = variables
  .superRefine((env, context) => {
    const refuse = (name: VariableName, message: string) => context.addIssue({ code: 'custom', path: [name], message });
    const leastMemory = leastArgon2idMemory(env.PASSWORD_HASH_TIME_COST);
    if (env.PASSWORD_HASH_MEMORY_KIB < leastMemory) {
      refuse(
        'PASSWORD_HASH_MEMORY_KIB',
        `must be at least ${leastMemory} when PASSWORD_HASH_TIME_COST is ${env.PASSWORD_HASH_TIME_COST} ` +
          `(OWASP's argon2id minimum: ${argon2idMinimums.map((row) => `${row.memoryKib} KiB at time cost ${row.timeCost}`).join(', ')} or more)`,
      );
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
      refuse('METRICS_PORT', 'must differ from PORT: /metrics gets a port of its own');
    if (env.METRICS_HOST !== undefined && env.METRICS_PORT === undefined)
      refuse('METRICS_HOST', 'is set but METRICS_PORT is not: set METRICS_PORT too, or unset it');
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
  })
  .transform((env) => {
    const base = env.INIT_CWD ?? process.cwd();
    return {
      port: env.PORT,
      host: env.HOST,
      dataDir: env.DATA_DIR ? path.resolve(base, env.DATA_DIR) : path.join(repoRoot, 'data'),
      databaseUrl: env.DATABASE_URL,
      /** Unset: loadConfig generates one into DATA_DIR. */
      jwtSecret: env.JWT_SECRET,
      /** Session lifetime in seconds. */
      tokenTtl: env.TOKEN_TTL,
      adminUsername: env.ADMIN_USERNAME,
      adminPassword: env.ADMIN_PASSWORD,
      adminEmail: env.ADMIN_EMAIL,
      publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM,
      logLevel: env.LOG_LEVEL,
      loginAttemptsPerAddress: env.LOGIN_ATTEMPTS_PER_ADDRESS,
      loginAttemptsPerAccountAndAddress: env.LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
      loginAttemptsPerAccount: env.LOGIN_ATTEMPTS_PER_ACCOUNT,
      /** X-Forwarded-For is read from these proxies (or every one: true). */
      trustProxy: env.TRUST_PROXY,
      redisUrl: env.REDIS_URL,
      /**
       * GET /metrics (plugins/metrics.ts): on `port` (at `host`) when set, else on the main port
       * behind `token`; undefined (off) when neither variable is set.
       */
      metrics:
        env.METRICS_TOKEN === undefined && env.METRICS_PORT === undefined
          ? undefined
          : { token: env.METRICS_TOKEN, port: env.METRICS_PORT, host: env.METRICS_HOST ?? '127.0.0.1' },
      /** The built web app, served when the folder holds one. */
      webDist: env.WEB_DIST ? path.resolve(base, env.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
      maxUploadBytes: env.MAX_UPLOAD_BYTES,
      uploadsPerUser: env.UPLOADS_PER_USER,
      jobConcurrency: env.JOB_CONCURRENCY,
      jobLeaseSeconds: env.JOB_LEASE_SECONDS,
      /**
       * The lab's settings the first start writes (docs/decisions/settings.md); the running portal
       * reads them from the database (services/lab-settings.ts), where the Settings screen changes them.
       */
      firstStartSettings: {
        ...defaultLabSettings,
        planStepLimits: { stepMm: env.PLAN_STEP_LIMIT_MM, stepDeg: env.PLAN_STEP_LIMIT_DEGREES },
        turnaroundDays: env.TURNAROUND_DAYS as TurnaroundTargets,
        digestHourUtc: env.MAIL_DIGEST_HOUR,
      } satisfies LabSettings,
      // Room for a second submission's files while the first one's are still held.
      uploadBytesPerUser: env.UPLOAD_BYTES_PER_USER ?? 2 * env.MAX_UPLOAD_BYTES,
      orphanFileGraceSeconds: env.ORPHAN_FILE_GRACE,
      sweepIntervalSeconds: env.SWEEP_INTERVAL,
      bodyStallTimeoutSeconds: env.BODY_STALL_TIMEOUT,
      bodyTimeoutSeconds: env.BODY_TIMEOUT,
      /** 0: no cap. */
      maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
      shutdownTimeoutSeconds: env.SHUTDOWN_TIMEOUT,
      passwordHashing: {
        memoryCost: env.PASSWORD_HASH_MEMORY_KIB,
        timeCost: env.PASSWORD_HASH_TIME_COST,
        parallelism: env.PASSWORD_HASH_PARALLELISM,
      },
      /** Encrypts archives of `npm run backup` (and decrypts them for `npm run restore`). */
      backupKey: env.BACKUP_KEY,
      /** S3-compatible object storage instead of DATA_DIR/files, when S3_BUCKET is set. */
      s3: env.S3_BUCKET
        ? {
            bucket: env.S3_BUCKET,
            region: env.S3_REGION ?? 'us-east-1',
            // Optional keys rather than undefined ones: a test's bucket names only what it sets.
            ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
            ...(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : {}),
          }
        : undefined,
    };
  });

/**
 * Everything the server reads from its environment (docs/configuration.md): the schema's
 * output, with the JWT secret that loadConfig may take from DATA_DIR.
 */
export type Config = Omit<z.output<typeof environmentSchema>, 'jwtSecret'> & { jwtSecret: string };

/** How a refused value is repeated in the error (` (got ...)`): secrets never, URLs without their user information. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined || value === '') return '';
  const shown = (variables.shape[name as VariableName]?.meta() as { shown?: Shown } | undefined)?.shown;
  if (shown === 'length') return ` (got ${value.length} characters)`;
  const visible =
    shown === 'withoutCredentials'
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
    parts.push(`${name} ${issue.message}${shownValue(name, env[name])}`);
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
      mkdirSync(dataDir, { recursive: true, mode: ownerOnlyFolder });
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
  return { ...parsed.data, jwtSecret: loadJwtSecret(parsed.data.dataDir, parsed.data.jwtSecret) };
}
