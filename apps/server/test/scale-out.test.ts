import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { Mailer } from '../src/mail/mailer.ts';
import { MailOutbox } from '../src/mail/outbox.ts';
import { binaryStl, caseFields, caseForm, sha256 } from './helpers/case-factories.ts';
import { doctorFields, formData } from './helpers/factories.ts';
import { silentLogger } from './helpers/constants.ts';
import { s3rverCredentials, startS3rver } from './helpers/s3rver.ts';
import { createTestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

/**
 * Two real portal processes sharing what docs/deployment.md says
 * they must share: one PostgreSQL database, one S3 bucket (s3rver), one JWT_SECRET and one
 * Redis; each has its own DATA_DIR, so nothing can pass between them on disk.
 */
const bucket = 'scale-out';
const attemptsPerAccount = 3;
/** Redis outlives the run and other runs share it: every account name is new, so no count carries over. */
const freshName = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;
const admin = { username: freshName('admin'), password: 'admin-password' };

async function login(portal: PortalProcess, username: string, password: string): Promise<string> {
  const response = await portal.api('POST', '/auth/login', { json: { username, password } });
  expect(response.status, `login ${username} on ${portal.baseUrl}`).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const userIdOf = (token: string) =>
  Number((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub);

/** An active doctor with one clinic, made by the administrator through `portal`. */
async function createDoctor(portal: PortalProcess, adminToken: string) {
  const [city] = (await (await portal.api('GET', '/city/get_cities_list/1')).json()) as { CityId: number }[];
  const username = freshName('dr');
  const fields = doctorFields({
    username,
    isActive: 'true',
    clinicList: JSON.stringify([
      { clinicId: 0, clinicName: 'Smile', countryId: 1, cityId: city!.CityId, contactNo: '1', address: '1 Main St' },
    ]),
  });
  const response = await portal.api('POST', '/doctor/add', { token: adminToken, form: formData(fields) });
  expect(response.status, await response.clone().text()).toBe(200);
  return { username, password: String(fields.password) };
}

async function createDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_scale_out_${randomBytes(6).toString('hex')}`;
  const adminClient = new pg.Client({ connectionString: url });
  await adminClient.connect();
  await adminClient.query(`create database ${name}`);
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  return {
    url: databaseUrl.toString(),
    async drop() {
      await adminClient.query(`drop database if exists ${name} with (force)`);
      await adminClient.end();
    },
  };
}

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)(
  'scale-out (needs DATABASE_URL and REDIS_URL): two portal processes on one PostgreSQL, one S3 store and one Redis',
  () => {
    let s3: Awaited<ReturnType<typeof startS3rver>>;
    let database: Awaited<ReturnType<typeof createDatabase>>;
    const dataDirs: string[] = [];
    let first: PortalProcess;
    let second: PortalProcess;
    let adminToken: string;
    /** What the tests observed across the two processes, printed as the figure. */
    const seen = {
      tokenAcceptedElsewhere: 0,
      refusedAfterLogout: 0,
      bytesServedElsewhere: 0,
      readersServed: 0,
      attemptsBeforeRefusal: 0,
      refusedOnBoth: 0,
    };

    beforeAll(async () => {
      s3 = await startS3rver(bucket);
      database = await createDatabase(process.env.DATABASE_URL!);
      const shared = {
        DATABASE_URL: database.url,
        S3_BUCKET: bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: s3rverCredentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3rverCredentials.secretAccessKey,
        JWT_SECRET: randomBytes(32).toString('hex'),
        REDIS_URL: process.env.REDIS_URL!,
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
        LOGIN_ATTEMPTS_PER_ACCOUNT: String(attemptsPerAccount),
        // Every test on this machine signs in from 127.0.0.1; only the account count is under test.
        LOGIN_ATTEMPTS_PER_ADDRESS: '10000',
        LOG_LEVEL: 'error',
      };
      // Started together on an empty database, as replicas are: the startup lock lets one migrate and seed.
      const startOne = async () => {
        const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-scale-out-'));
        dataDirs.push(dataDir);
        return startPortal({ ...shared, DATA_DIR: dataDir });
      };
      [first, second] = await Promise.all([startOne(), startOne()]);
      adminToken = await login(first, admin.username, admin.password);
    }, scaled(240_000));

    afterAll(async () => {
      console.log(
        `[figure] scale-out: 2 processes; a token from one accepted by the other ${seen.tokenAcceptedElsewhere} times, ` +
          `refused on ${seen.refusedAfterLogout} of 2 after a logout; ${seen.bytesServedElsewhere} bytes uploaded ` +
          `through one served byte for byte by the other to ${seen.readersServed} readers; sign-in refused (429) ` +
          `by ${seen.refusedOnBoth} of 2 after ${seen.attemptsBeforeRefusal} failures spread over both`,
      );
      await Promise.all([first?.stop(), second?.stop()]);
      // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
      await stopStartedProcesses();
      await database?.drop();
      await s3?.stop();
      await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    });

    it('accepts on one process a token issued by the other, and a logout on either ends it on both', async () => {
      expect((await second.api('GET', '/doctor/get_doctors_list', { token: adminToken })).status).toBe(200);
      seen.tokenAcceptedElsewhere++;

      const doctor = await createDoctor(second, adminToken);
      const token = await login(first, doctor.username, doctor.password);
      const clinics = `/clinic/get_clinics_list_by_user_id/${userIdOf(token)}`;
      // Used on both first, so each process has it in its verified-token cache.
      expect((await second.api('GET', clinics, { token })).status).toBe(200);
      seen.tokenAcceptedElsewhere++;
      expect((await first.api('GET', clinics, { token })).status).toBe(200);

      expect((await second.api('POST', '/auth/logout', { token })).status).toBe(200);
      expect((await first.api('GET', clinics, { token })).status).toBe(401);
      seen.refusedAfterLogout++;
      expect((await second.api('GET', clinics, { token })).status).toBe(401);
      seen.refusedAfterLogout++;
    });

    it('serves through one process, byte for byte, a case file uploaded through the other', async () => {
      const doctor = await createDoctor(first, adminToken);
      const token = await login(first, doctor.username, doctor.password);
      const clinics = (await (
        await first.api('GET', `/clinic/get_clinics_list_by_user_id/${userIdOf(token)}`, { token })
      ).json()) as { ClinicId: number }[];
      const scan = binaryStl(40_000); // 2 MB
      const submitted = await first.api('POST', '/case/add', {
        token,
        form: caseForm(caseFields(clinics[0]!.ClinicId), { maxillaryScan: { data: scan, name: 'upper.stl' } }),
      });
      expect(submitted.status, await submitted.clone().text()).toBe(200);
      const { CaseId } = (await submitted.json()) as { CaseId: number };

      for (const reader of [token, adminToken]) {
        const listed = await second.api('GET', `/case/get_cases_attachments_by_case_id/${CaseId}`, {
          token: reader,
        });
        const [attachment] = (await listed.json()) as { FilePath: string; Sha256: string }[];
        expect(attachment!.Sha256).toBe(sha256(scan));
        const download = await fetch(`${second.baseUrl}${attachment!.FilePath}`, {
          headers: { authorization: `Bearer ${reader}` },
        });
        expect(download.status).toBe(200);
        const bytes = Buffer.from(await download.arrayBuffer());
        expect(bytes.equals(scan)).toBe(true);
        seen.bytesServedElsewhere = bytes.length;
        seen.readersServed++;
      }
      // The bytes went to the bucket, not to either process's own folder.
      for (const dataDir of dataDirs) {
        expect(await readdir(path.join(dataDir, 'files')).catch(() => [])).toEqual([]);
      }
    });

    it('counts sign-in attempts for one account across both processes (Redis)', async () => {
      const doctor = await createDoctor(first, adminToken);
      const attempt = (portal: PortalProcess, password = 'wrong-password') =>
        portal.api('POST', '/auth/login', { json: { username: doctor.username, password } });

      const failures = [await attempt(first), await attempt(first), await attempt(second)];
      for (const failure of failures) expect(failure.status).toBe(401);
      seen.attemptsBeforeRefusal = failures.filter((failure) => failure.status === 401).length;
      // The fourth attempt, even with the right password, is refused by either process.
      const refused = await attempt(first, doctor.password);
      expect(refused.status).toBe(429);
      seen.refusedOnBoth++;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await attempt(second, doctor.password)).status).toBe(429);
      seen.refusedOnBoth++;
    });
  },
);

describe('mail outbox: two processes polling one database', () => {
  it('sends each queued mail once when two dispatchers run at the same time', async () => {
    const t = await createTestApp();
    try {
      const recipients = Array.from({ length: 40 }, (_, i) => `doctor-${i}@outbox.test`);
      for (const to of recipients) {
        await t.app.outbox.enqueue(t.app.db, {
          to,
          template: 'activation',
          variables: { username: to, resetUrl: 'http://portal.test/reset' },
        });
      }
      // Each dispatcher as another process would have it: its own mailer, the same database.
      const dispatchers = ['a', 'b'].map((name) => {
        const outboxDir = path.join(t.dataDir, `outbox-${name}`);
        const mailer = new Mailer({ from: 'Portal <portal@test>', outboxDir }, silentLogger);
        return { outboxDir, mailer, outbox: new MailOutbox(t.app.db, mailer, silentLogger) };
      });
      const sent = await Promise.all(dispatchers.map(({ outbox }) => outbox.deliverDue()));
      expect(sent[0]! + sent[1]!).toBe(recipients.length);

      const delivered: string[] = [];
      for (const { outboxDir, mailer } of dispatchers) {
        mailer.close();
        for (const file of await readdir(outboxDir).catch(() => [])) {
          delivered.push(/^To: (.+)$/m.exec(await readFile(path.join(outboxDir, file), 'utf8'))![1]!);
        }
      }
      expect(delivered.sort()).toEqual([...recipients].sort());
    } finally {
      await t.close();
    }
  });
});
