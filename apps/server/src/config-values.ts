import { isIP } from 'node:net';

// How an environment variable's text is read (config.ts): each reader returns the value, or
// undefined for text it does not accept.

const durationUnits: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** '8h', '30m', '1d', '45s', '3600' (seconds) -> seconds; undefined when it is none of these. */
export function readDuration(value: string): number | undefined {
  const match = /^(\d+)\s*([smhd]?)$/i.exec(value.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * (durationUnits[(match[2] || 's').toLowerCase()] ?? 1);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
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

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A URL with one of `protocols` ('postgres:'), or undefined. */
export function readUrl(value: string, protocols: string[]): URL | undefined {
  if (/\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

export function readWholeNumber(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (!/^\d+$/.test(value.trim())) return undefined;
  const number = Number(value.trim());
  return number >= min && number <= max ? number : undefined;
}

/** A decimal number from `min` to `max` ("0.25", "2"), or undefined. */
export function readDecimal(value: string, min: number, max: number): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const number = Number(value.trim());
  return number >= min && number <= max ? number : undefined;
}

const hostName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function readHost(value: string): string | undefined {
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

export function readTrustProxy(value: string): boolean | string | undefined {
  const trimmed = value.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  const entries = trimmed.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries.join(',') : undefined;
}

const mailbox = /^[^\s@<>]+@[^\s@<>]+$/;

export function readMailFrom(value: string): string | undefined {
  const trimmed = value.trim();
  if (mailbox.test(trimmed)) return trimmed;
  const named = /^([^<>]*)<\s*([^<>]*?)\s*>$/.exec(trimmed);
  return named && mailbox.test(named[2]!) ? trimmed : undefined;
}

export const text = (value: string) => value;
export const readPositiveDuration = (value: string) => {
  const seconds = readDuration(value);
  return seconds !== undefined && seconds >= 1 ? seconds : undefined;
};
export const readPositiveSize = (value: string) => {
  const bytes = readSize(value);
  return bytes !== undefined && bytes >= 1 ? bytes : undefined;
};
export const atLeastOne = (value: string) => readWholeNumber(value, 1);
export const folder = (value: string) => (value.includes('\0') ? undefined : value);

/**
 * Days a case may stay in each status before it is overdue, as `status=days` pairs separated
 * by commas ("new=2,inprogress=10,dispatched=7"); a status not named has no target. Undefined
 * for anything else: an unknown status, days not a whole number from 1 to 365, a repeat.
 */
export function readTurnaround(value: string, statuses: readonly string[]): Record<string, number> | undefined {
  const targets: Record<string, number> = {};
  for (const pair of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+)\s*=\s*(\d+)$/.exec(pair);
    const days = match ? readWholeNumber(match[2]!, 1, 365) : undefined;
    if (!match || days === undefined || !statuses.includes(match[1]!) || match[1]! in targets) return undefined;
    targets[match[1]!] = days;
  }
  return targets;
}
