import { ADMIN_ROLE_ID, unsetAdminEmail } from '@portal/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../src/auth/passwords.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { users } from '../src/db/schema.ts';
import { seedDatabase } from '../src/db/seed.ts';
import { silentLogger, testPasswordHashing } from './helpers/constants.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { testGeography } from './helpers/test-geography.ts';

/**
 * The seeded administrator's address: ADMIN_EMAIL, or the placeholder the web app asks them
 * to replace (docs/decisions/accounts.md § Seeds).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const secret = 'x'.repeat(40);

/** The live administrators' usernames and addresses. */
const administrators = () =>
  t.app.db
    .select({ userName: users.userName, email: users.email })
    .from(users)
    .where(and(eq(users.roleId, ADMIN_ROLE_ID), isNull(users.deletedAt)));

/** Seeds again with no administrator left, as a first start does. */
async function seedWithoutAdministrator(email: string | undefined) {
  await t.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.roleId, ADMIN_ROLE_ID));
  await seedDatabase(t.app.db, silentLogger, {
    admin: {
      username: `chief${Date.now().toString(36)}`,
      password: 'a-first-start-passphrase',
      email,
      passwords: new PasswordHasher(testPasswordHashing),
    },
    geography: testGeography,
  });
}

describe('ADMIN_EMAIL', () => {
  it('is read as an e-mail address, trimmed, and refused otherwise', () => {
    expect(loadConfig({ JWT_SECRET: secret, ADMIN_EMAIL: ' lab@clinic.example ' }).adminEmail).toBe(
      'lab@clinic.example',
    );
    expect(loadConfig({ JWT_SECRET: secret }).adminEmail).toBeUndefined();
    expect(() => loadConfig({ JWT_SECRET: secret, ADMIN_EMAIL: 'not an address' })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: secret, ADMIN_EMAIL: 'not an address' })).toThrow(
      /ADMIN_EMAIL must be an e-mail address/,
    );
  });

  it('gives the seeded administrator its address; unset, the placeholder the portal asks to replace', async () => {
    await seedWithoutAdministrator('lab@clinic.example');
    expect(await administrators()).toEqual([expect.objectContaining({ email: 'lab@clinic.example' })]);
    await seedWithoutAdministrator(undefined);
    expect(await administrators()).toEqual([expect.objectContaining({ email: unsetAdminEmail })]);
  });

  it('leaves an administrator already there as they are', async () => {
    const before = await administrators();
    await seedDatabase(t.app.db, silentLogger, {
      admin: { email: 'other@clinic.example', passwords: new PasswordHasher(testPasswordHashing) },
      geography: testGeography,
    });
    expect(await administrators()).toEqual(before);
  });
});
