import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { maxPageSize } from '@portal/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compiledServer, startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { backupCliFile } from '../build.ts';
import { connectDatabase } from '../src/db/client.ts';
import { binaryStl, caseFields, caseForm, sha256 } from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles } from './helpers/plan-factories.ts';
import { portalEnv, portalJson, seededDatabase } from './helpers/portal-process-api.ts';
import { s3rverCredentials, startS3rver } from './helpers/s3rver.ts';
import { testAdmin } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(180_000) });

/**
 * `npm run backup` and `npm run restore` against the real portal: on PGlite, or on PostgreSQL
 * with DATABASE_URL; files in DATA_DIR/files, and in a bucket (s3rver).
 * docs/decisions/backups.md § Backups while the portal serves
 * docs/decisions/backups.md § Restores
 */
const databaseUrl = process.env.DATABASE_URL;
const backupKey = 'correct horse battery staple, thirty-two+';
const run = promisify(execFile);

/** Runs the backup command line, compiled as `npm run backup` runs it, with the portal's environment: its exit code and output. */
async function runCli(env: Record<string, string>, ...args: string[]) {
  await compiledServer();
  try {
    const { stdout, stderr } = await run(process.execPath, [backupCliFile, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A DATA_DIR and a database a portal runs on, with what it takes to empty them again. */
async function portalData(prefix: string, extraEnv: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
  const database = await seededDatabase(dataDir, prefix.replaceAll('-', '_'));
  const env = { ...portalEnv(dataDir, database.url), ...extraEnv };
  return {
    dataDir,
    env,
    /** A connection of the test's own (PGlite: only while no portal runs). */
    connect: () => connectDatabase(database.url ? { url: database.url } : { dataDir: path.join(dataDir, 'pglite') }),
    /** The target a restore wants: no PGlite data, no files, an empty database. */
    async wipe() {
      await rm(path.join(dataDir, 'pglite'), { recursive: true, force: true });
      await rm(path.join(dataDir, 'files'), { recursive: true, force: true });
      if (!database.url) return;
      const name = new URL(database.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
    },
    async isEmpty() {
      const entries = [
        ...(await readdir(path.join(dataDir, 'pglite')).catch(() => [])),
        ...(await readdir(path.join(dataDir, 'files')).catch(() => [])),
      ];
      if (!database.url) return entries.length === 0;
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
      );
      await client.end();
      return entries.length === 0 && rows[0]!.n === 0;
    },
    async remove() {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type PortalData = Awaited<ReturnType<typeof portalData>>;

/** Every table's row count. */
async function rowCounts(data: PortalData): Promise<Record<string, number>> {
  const connection = await data.connect();
  try {
    const tables = (await connection.db.execute(
      sql.raw("select table_name as name from information_schema.tables where table_schema = 'public' order by 1"),
    )) as unknown as { rows: { name: string }[] };
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const result = (await connection.db.execute(sql.raw(`select count(*)::int as n from "${name}"`))) as unknown as {
        rows: { n: number }[];
      };
      counts[name] = result.rows[0]!.n;
    }
    return counts;
  } finally {
    await connection.close();
  }
}

/**
 * What takes the latest migration back, as an older portal's database would be: the indexes,
 * columns, functions (and so their triggers) and tables it creates (as drizzle-kit and this
 * project's hand-written migrations write them) dropped, so that applying it again after the
 * restore succeeds.
 */
async function undoLatestMigration(): Promise<string[]> {
  const folder = path.resolve(import.meta.dirname, '../drizzle');
  const journal = JSON.parse(await readFile(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const tag = journal.entries.at(-1)!.tag;
  const migration = await readFile(path.join(folder, `${tag}.sql`), 'utf8');
  const earlier = await Promise.all(
    journal.entries.slice(0, -1).map(({ tag }) => readFile(path.join(folder, `${tag}.sql`), 'utf8')),
  );
  const functionDefinition = /CREATE (?:OR REPLACE )?FUNCTION "([^"]+)"[^]*?\$\$[^]*?\$\$;/g;
  /** A function an earlier migration defined: its last definition before this one. */
  const definedBefore = (name: string) =>
    earlier
      .flatMap((sql) => [...sql.matchAll(functionDefinition)])
      .filter(([, defined]) => defined === name)
      .at(-1)?.[0];
  const undo = [
    ...[...migration.matchAll(/CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?"([^"]+)"/g)].map(
      ([, index]) => `drop index if exists "${index}"`,
    ),
    ...[...migration.matchAll(/ALTER TABLE "([^"]+)" ADD COLUMN "([^"]+)"/g)].map(
      ([, table, column]) => `alter table "${table}" drop column "${column}" cascade`,
    ),
    // A new function goes with its triggers; a function it redefines gets its earlier body back.
    ...[...migration.matchAll(/CREATE (?:OR REPLACE )?FUNCTION "([^"]+)"/g)].map(
      ([, name]) => definedBefore(name!) ?? `drop function "${name}" cascade`,
    ),
    ...[...migration.matchAll(/CREATE TABLE "([^"]+)"/g)].map(([, table]) => `drop table "${table}" cascade`),
    // An index it replaces gets its earlier definition back.
    ...[...migration.matchAll(/DROP INDEX (?:IF EXISTS )?"([^"]+)"/g)].flatMap(([, index]) => {
      const created = earlier
        .flatMap((sql) => [...sql.matchAll(/CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?"([^"]+)"[^;]*;/g)])
        .filter(([, name]) => name === index)
        .at(-1)?.[0];
      return created ? [created.replace(/;$/, '')] : [];
    }),
  ];
  expect(undo, `no index, column or table of ${tag} to drop: take back what it adds here`).not.toHaveLength(0);
  return undo;
}

/** Runs the statements in order on one connection (PGlite: opening one is most of the cost). */
async function execute(data: PortalData, ...statements: string[]) {
  const connection = await data.connect();
  try {
    for (const statement of statements) await connection.db.execute(sql.raw(statement));
  } finally {
    await connection.close();
  }
}

describe(`npm run backup and npm run restore (${databaseUrl ? 'PostgreSQL' : 'PGlite'}, files in DATA_DIR)`, () => {
  let data: PortalData;
  let portal: PortalProcess;
  let adminToken: string;
  let doctor: { token: string; clinicId: number };
  let archiveDir: string;
  /** CaseId -> the SHA-256 of each file sent with it. */
  const sent = new Map<number, string[]>();
  const { callJson, login, createDoctor } = portalJson(() => portal);

  async function submit(triangles: number) {
    const photo = await makeImage('png', 40);
    const scan = binaryStl(triangles);
    const form = caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
      front: { data: photo, name: 'front.png' },
      maxillaryScan: { data: scan, name: 'upper.stl' },
    });
    const { CaseId } = await callJson<{ CaseId: number }>('POST', '/case/add', { token: doctor.token, form });
    sent.set(CaseId, [sha256(photo), sha256(scan)].sort());
    return CaseId;
  }

  /** Each listed case's files downloaded: the SHA-256s per case. */
  async function downloadedFiles(caseIds: number[]) {
    const hashes = new Map<number, string[]>();
    for (const caseId of caseIds) {
      const files = await callJson<{ FilePath: string }[]>('GET', `/case/get_cases_attachments_by_case_id/${caseId}`, {
        token: adminToken,
      });
      const downloaded = await Promise.all(
        files.map(async (file) => {
          const response = await fetch(`${portal.baseUrl}${file.FilePath}`, {
            headers: { authorization: `Bearer ${adminToken}` },
          });
          return response.ok ? sha256(Buffer.from(await response.arrayBuffer())) : `missing ${response.status}`;
        }),
      );
      hashes.set(caseId, downloaded.sort());
    }
    return hashes;
  }

  /** Every case the administrator is listed, page after page. */
  async function caseIdsListed(): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const url = `/case/get_cases_by_status/all/0?sort=CaseId&pageSize=${maxPageSize}&page=${page}`;
      const rows = await callJson<{ CaseId: number }[]>('GET', url, { token: adminToken });
      ids.push(...rows.map((row) => row.CaseId));
      if (rows.length < maxPageSize) return ids;
    }
  }

  beforeAll(async () => {
    archiveDir = await mkdtemp(path.join(os.tmpdir(), 'portal-archives-'));
    data = await portalData('portal-backup');
    portal = await startPortal(data.env, { quiet: true });
    adminToken = await login(testAdmin.username, testAdmin.password);
    doctor = await createDoctor(adminToken);
  }, scaled(120_000));

  afterAll(async () => {
    await portal?.stop();
    // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
    await stopStartedProcesses();
    await data?.remove();
    await rm(archiveDir, { recursive: true, force: true });
  });

  let quiet: { counts: Record<string, number>; answers: Record<number, unknown>; files: Map<number, string[]> };

  it('backs up while requests run, and again encrypted with the portal stopped; the archives hold every case, message, plan and draft', async () => {
    const caseIds = [];
    for (let index = 0; index < 4; index++) caseIds.push(await submit(200 + index));
    const [first] = caseIds;
    await callJson('POST', `/case/${first}/messages`, {
      token: doctor.token,
      form: caseForm(
        { text: 'Please check the upper arch' },
        { files: [{ data: await makeImage('png', 30), name: 'note.png' }] },
      ),
    });
    await callJson('POST', `/case/${first}/plans`, {
      token: adminToken,
      form: planForm(planSummaryOf(1, 1), stageFiles(1, 1)),
    });
    await callJson('POST', '/case/drafts', { token: doctor.token, json: { fields: { firstname: 'Ada' }, step: 1 } });

    // Submissions and reads keep running until the backup has ended.
    let isBackingUp = true;
    const traffic = (async () => {
      let requests = 0;
      for (let round = 0; isBackingUp || round < 2; round++) {
        // Sign-ins in the first rounds only: a fast machine runs many rounds in a backup's
        // time, and 30 sign-ins a minute from one address are refused (429) by design.
        const signIn = round < 5 ? [login(testAdmin.username, testAdmin.password)] : [];
        await Promise.all([submit(300 + round), caseIdsListed(), ...signIn]);
        requests += 2 + signIn.length;
      }
      return requests;
    })();
    const underLoad = await runCli(data.env, 'backup', path.join(archiveDir, 'under-load.tar'));
    isBackingUp = false;
    expect(await traffic).toBeGreaterThan(3);
    expect(underLoad.stderr).toBe('');
    expect(underLoad.stdout).toMatch(/^Backup written to .*under-load\.tar: .* files, not encrypted/);

    const ids = await caseIdsListed();
    const answers: Record<number, unknown> = {};
    for (const id of ids) answers[id] = await callJson('GET', `/case/${id}`, { token: adminToken });
    const files = await downloadedFiles(ids);
    // Stopped, so that nothing (a viewing copy's job) changes a row between the backup and the count.
    await portal.stop();
    const encrypted = await runCli(
      { ...data.env, BACKUP_KEY: backupKey },
      'backup',
      path.join(archiveDir, 'encrypted.tar'),
    );
    expect(encrypted.stdout).toMatch(/encrypted with BACKUP_KEY/);
    const bytes = await readFile(path.join(archiveDir, 'encrypted.tar'));
    // Nothing readable: not the manifest, not a patient's name.
    expect(bytes.includes('manifest.json')).toBe(false);

    quiet = { counts: await rowCounts(data), answers, files };
    expect(quiet.counts).toMatchObject({ case_messages: 1, treatment_plans: 1, case_drafts: 1 });
  });

  it('refuses to restore over data unless --force', async () => {
    const refused = await runCli(
      { ...data.env, BACKUP_KEY: backupKey },
      'restore',
      path.join(archiveDir, 'encrypted.tar'),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Not restoring over data: .* not empty\. Restore into an empty one, or add --force/,
    );
  });

  it('refuses a truncated, a changed, an unencrypted-for-a-key and a wrongly keyed archive, leaving the target empty', async () => {
    await data.wipe();
    const plain = await readFile(path.join(archiveDir, 'under-load.tar'));
    const encrypted = await readFile(path.join(archiveDir, 'encrypted.tar'));
    const flipped = (bytes: Buffer, at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x40;
      return copy;
    };
    const cases: [string, Buffer, Record<string, string>, RegExp][] = [
      ['truncated', plain.subarray(0, Math.floor(plain.length * 0.6)), {}, /truncated/],
      // A byte of a stored scan's content: a byte of the tar's padding would change nothing.
      ['changed', flipped(plain, plain.indexOf(binaryStl(200)) + 100), {}, /changed|damaged/],
      ['truncated-encrypted', encrypted.subarray(0, encrypted.length - 100), { BACKUP_KEY: backupKey }, /truncated/],
      [
        'changed-encrypted',
        flipped(encrypted, Math.floor(encrypted.length / 2)),
        { BACKUP_KEY: backupKey },
        /could not be decrypted/,
      ],
      ['no-key', encrypted, {}, /^This archive is encrypted: set BACKUP_KEY/],
      ['wrong-key', encrypted, { BACKUP_KEY: 'x'.repeat(40) }, /could not be decrypted: BACKUP_KEY is not the key/],
    ];
    for (const [name, bytes, env, message] of cases) {
      const file = path.join(archiveDir, `${name}.tar`);
      await writeFile(file, bytes);
      const refused = await runCli({ ...data.env, ...env }, 'restore', file);
      expect(refused.code, name).toBe(1);
      expect(refused.stderr, name).toMatch(message);
      expect(await data.isEmpty(), name).toBe(true);
    }
  });

  it('restores the encrypted archive: every row count, case answer, file and sign-in as before', async () => {
    const restored = await runCli(
      { ...data.env, BACKUP_KEY: backupKey },
      'restore',
      path.join(archiveDir, 'encrypted.tar'),
    );
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toMatch(/^Restored .* files\n$/);
    expect(await rowCounts(data)).toEqual(quiet.counts);
    portal = await startPortal(data.env, { quiet: true });
    adminToken = await login(testAdmin.username, testAdmin.password);
    const ids = await caseIdsListed();
    expect(ids.sort()).toEqual(Object.keys(quiet.answers).map(Number).sort());
    for (const id of ids)
      expect(await callJson('GET', `/case/${id}`, { token: adminToken })).toEqual(quiet.answers[id]);
    expect(await downloadedFiles(ids)).toEqual(quiet.files);
    // The doctor's session came back with the database.
    expect((await portal.api('GET', '/case/get_cases_by_status/all/0', { token: doctor.token })).status).toBe(200);
    await portal.stop();
  });

  it('restores the archive made under load with --force over what is there: every case it holds has its files', async () => {
    const restored = await runCli(data.env, 'restore', path.join(archiveDir, 'under-load.tar'), '--force');
    expect(restored.stderr).toBe('');
    portal = await startPortal(data.env, { quiet: true });
    adminToken = await login(testAdmin.username, testAdmin.password);
    const ids = await caseIdsListed();
    expect(ids.length).toBeGreaterThanOrEqual(4);
    const files = await downloadedFiles(ids);
    for (const id of ids) expect(files.get(id), `case ${id}`).toEqual(sent.get(id));
    await portal.stop();
  });

  it('refuses an archive of a newer schema, and migrates an older one after restoring it', async () => {
    const future = Date.UTC(2100, 0, 1);
    await execute(
      data,
      `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', ${future})`,
    );
    const newer = path.join(archiveDir, 'newer.tar');
    expect((await runCli(data.env, 'backup', newer)).stderr).toBe('');
    await execute(data, "delete from drizzle.__drizzle_migrations where hash = 'from-the-future'");
    // An older portal: its last migration not yet applied.
    await execute(
      data,
      ...(await undoLatestMigration()),
      'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)',
    );
    const older = path.join(archiveDir, 'older.tar');
    expect((await runCli(data.env, 'backup', older)).stderr).toBe('');

    await data.wipe();
    const refused = await runCli(data.env, 'restore', newer);
    expect(refused.stderr).toMatch(
      /^This archive is from a newer version of the portal \(its schema is of 2100-01-01, .*\); upgrade the portal first/,
    );
    expect(await data.isEmpty()).toBe(true);

    const restored = await runCli(data.env, 'restore', older);
    expect(restored.stdout).toMatch(/, 1 migrations applied\n$/);
    const counts = await rowCounts(data);
    expect(counts.cases).toBeGreaterThanOrEqual(4);
    await execute(data, 'select status_changed_at from cases limit 1');
  });
});

describe(`npm run backup and npm run restore with files in S3 (s3rver, ${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  const bucket = 'backup-scans';
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let data: PortalData;
  let portal: PortalProcess;
  let archive: string;
  const { callJson, login, createDoctor } = portalJson(() => portal);

  beforeAll(async () => {
    s3 = await startS3rver(bucket);
    data = await portalData('portal-backup-s3', {
      S3_BUCKET: bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3rverCredentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3rverCredentials.secretAccessKey,
    });
    archive = path.join(data.dataDir, '..', `${path.basename(data.dataDir)}.tar`);
  }, scaled(60_000));

  afterAll(async () => {
    await portal?.stop();
    // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
    await stopStartedProcesses();
    await data?.remove();
    await s3?.stop();
    await rm(archive, { force: true });
  });

  it('lists every object with its size and SHA-256, restores the database, and refuses when an object is gone', async () => {
    portal = await startPortal(data.env, { quiet: true });
    const adminToken = await login(testAdmin.username, testAdmin.password);
    const doctor = await createDoctor(adminToken);
    const scan = binaryStl(500);
    const form = caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
      maxillaryScan: { data: scan, name: 'upper.stl' },
    });
    const { CaseId } = await callJson<{ CaseId: number }>('POST', '/case/add', { token: doctor.token, form });
    const backup = await runCli(data.env, 'backup', archive);
    expect(backup.stdout).toMatch(/ \d+ objects listed/);
    await portal.stop();

    await data.wipe();
    const restored = await runCli(data.env, 'restore', archive);
    expect(restored.stdout).toMatch(/\d+ objects checked in the bucket/);
    portal = await startPortal(data.env, { quiet: true });
    const token = await login(testAdmin.username, testAdmin.password);
    const [file] = await callJson<{ FilePath: string }[]>('GET', `/case/get_cases_attachments_by_case_id/${CaseId}`, {
      token,
    });
    const response = await fetch(`${portal.baseUrl}${file!.FilePath}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(scan));
    await portal.stop();

    await data.wipe();
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3rverCredentials,
    });
    // The archive is not encrypted: its objects.json names the scan's key.
    const storedKey = /"key": "(cases\/[^"]+)"/.exec((await readFile(archive)).toString('latin1'))?.[1];
    expect(storedKey).toBeTruthy();
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: storedKey }));
    const refused = await runCli(data.env, 'restore', archive);
    expect(refused.stderr).toMatch(/^1 of the \d+ objects the archive lists are missing from bucket backup-scans/);
    expect(await data.isEmpty()).toBe(true);
  });
});
