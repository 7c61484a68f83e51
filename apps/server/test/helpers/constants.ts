import pino from 'pino';

export const testAdmin = { username: 'admin', password: 'admin-password' };
export const silentLogger = pino({ level: 'silent' });
/**
 * argon2id at about a millisecond a hash instead of some 60: tests hash and verify hundreds
 * of passwords. Below OWASP's floor, which the environment schema keeps real processes to;
 * tests build their Config (and the template's administrator) directly.
 */
export const testPasswordHashing = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
