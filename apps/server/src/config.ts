import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything the server reads from its environment (README "Configuration"). */
export interface Config {
  port: number;
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
  /** Sign-in attempts allowed per address per minute, and per account per 15 minutes. */
  loginAttemptsPerAddress: number;
  loginAttemptsPerAccount: number;
  /** Trust X-Forwarded-For from a load balancer: TRUST_PROXY=true, or its addresses/CIDRs. */
  trustProxy: boolean | string;
  /** REDIS_URL: where sign-in attempts are counted, so that every process counts the same ones. */
  redisUrl?: string;
  /** Serve the built web app from this folder when it exists. */
  webDist?: string;
  /** MAX_UPLOAD_BYTES: the most file bytes one case submission may carry; unset means no limit. */
  maxUploadBytes?: number;
  /** ORPHAN_FILE_GRACE: stored case files no row references are swept at start once older than this (seconds). */
  orphanFileGraceSeconds: number;
  /** S3-compatible object storage instead of DATA_DIR/files, when S3_BUCKET is set. */
  s3?: { bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string };
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** '8h', '30m', '3600' -> seconds; `name` is the variable it came from, for the error. */
export function parseDuration(value: string, name = 'TOKEN_TTL'): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!match) throw new Error(`${name} "${value}" is not a duration like 8h, 30m or 3600`);
  return Number(match[1]) * (units[match[2] || 's'] ?? 1);
}

/** JWT_SECRET, or one generated once and kept in DATA_DIR so restarts keep sessions. */
function loadJwtSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return fromEnv;
  }
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  // `npm start` runs in apps/server; INIT_CWD is where the person typed it (the repo root).
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = env.DATA_DIR ? path.resolve(base, env.DATA_DIR) : path.join(repoRoot, 'data');
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: loadJwtSecret(dataDir, env.JWT_SECRET),
    tokenTtl: parseDuration(env.TOKEN_TTL ?? '8h'),
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Aligner Portal <no-reply@localhost>',
    logLevel: env.LOG_LEVEL ?? 'info',
    loginAttemptsPerAddress: Number(env.LOGIN_ATTEMPTS_PER_ADDRESS ?? 30),
    loginAttemptsPerAccount: Number(env.LOGIN_ATTEMPTS_PER_ACCOUNT ?? 10),
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY || false,
    redisUrl: env.REDIS_URL || undefined,
    webDist: env.WEB_DIST ? path.resolve(base, env.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    maxUploadBytes: env.MAX_UPLOAD_BYTES ? Number(env.MAX_UPLOAD_BYTES) : undefined,
    // A day: longer than any upload still in progress on another process sharing the storage.
    orphanFileGraceSeconds: parseDuration(env.ORPHAN_FILE_GRACE ?? '24h', 'ORPHAN_FILE_GRACE'),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
        }
      : undefined,
  };
}
