import { randomInt } from 'node:crypto';

/** Crockford-style base32 without the look-alikes 0, 1, I, L, O and U: safe to read out on the phone. */
const alphabet = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const randomLength = 6;

/**
 * 'AL-2611-7K3Q9D': prefix, year and month of submission (UTC), and six random characters
 * (30^6, about 729 million a month). Uniqueness is the database's unique index; a collision
 * is retried by the caller.
 */
export function makeTrackingNo(now = new Date()): string {
  const yymm = now.toISOString().slice(2, 7).replace('-', '');
  let random = '';
  for (let i = 0; i < randomLength; i++) random += alphabet[randomInt(alphabet.length)];
  return `AL-${yymm}-${random}`;
}

export const trackingNoPattern = new RegExp(`^AL-\\d{4}-[${alphabet}]{${randomLength}}$`);
