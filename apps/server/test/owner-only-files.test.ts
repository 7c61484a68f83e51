import { execFile } from 'node:child_process';
import { chmod, lstat, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledServer, startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { backupCliFile } from '../build.ts';
import { binaryStl, caseFields, caseForm } from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { planForm, planSummaryOf, stageFiles } from './helpers/plan-factories.ts';
import { portalEnv, portalJson, seededDatabase } from './helpers/portal-process-api.ts';
import { testAdmin } from './helpers/test-app.ts';

/**
 * Issue 40, security 4 (docs/decisions/invitations-events-files.md § Owner-only files): under
 * a umask of 0022, what the real portal and `npm run backup` write (database, stored files,
 * mails with their links, temporary files, the archive) is 0600, every folder 0700, and a
 * DATA_DIR an older portal left readable to others is tightened at start.
 */
const databaseUrl = process.env.DATABASE_URL;
const run = promisify(execFile);

/** Every entry under `folder` (itself included) whose mode is not owner-only: path and mode in octal. */
async function notOwnerOnly(folder: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (full: string) => {
    const info = await lstat(full);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== 0o700) found.push(`${full} ${mode.toString(8)}`);
      for (const name of await readdir(full)) await visit(path.join(full, name));
    } else if (info.isFile() && mode !== 0o600) {
      found.push(`${full} ${mode.toString(8)}`);
    }
  };
  await visit(folder);
  return found;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe(`DATA_DIR and backups are the owner's alone (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  let umaskBefore: number;
  let dataDir: string;
  let archiveDir: string;
  let database: { url: string; drop(): Promise<void> };
  let portal: PortalProcess;
  const { callJson, login, createDoctor } = portalJson(() => portal);

  beforeAll(async () => {
    // As most systems start services: group and others may read what is created.
    umaskBefore = process.umask(0o022);
    await compiledServer();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-owner-only-'));
    archiveDir = await mkdtemp(path.join(os.tmpdir(), 'portal-owner-only-archives-'));
    // A DATA_DIR as an older portal left it: readable to all, with the database (PGlite's
    // files unpacked under this umask, 0644) in it.
    await chmod(dataDir, 0o755);
    database = await seededDatabase(dataDir, 'owner_only');
    portal = await startPortal({ ...portalEnv(dataDir, database.url), JWT_SECRET: '' }, { quiet: true });
  }, scaled(240_000));

  afterAll(async () => {
    await portal?.stop();
    await stopStartedProcesses();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(archiveDir, { recursive: true, force: true });
    process.umask(umaskBefore);
  });

  it('writes the database, case files, plans, mails, the JWT secret and the backup archive 0600, folders 0700', async () => {
    const adminToken = await login(testAdmin.username, testAdmin.password);
    const doctor = await createDoctor(adminToken);
    const form = caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
      front: { data: await makeImage('png', 40), name: 'front.png' },
      maxillaryScan: { data: binaryStl(300), name: 'upper.stl' },
    });
    const { CaseId } = await callJson<{ CaseId: number }>('POST', '/case/add', { token: doctor.token, form });
    // A plan: its upload goes through DATA_DIR/tmp, its stage models and viewing copies into files/.
    await callJson('POST', `/case/${CaseId}/plans`, {
      token: adminToken,
      form: planForm(planSummaryOf(1, 1), stageFiles(1, 1)),
    });
    // A mail with a link to set a password, written to DATA_DIR/outbox (no SMTP_URL).
    await callJson('POST', '/doctor/assistants', {
      token: doctor.token,
      json: { email: 'owner-only@example.com', firstName: 'Olga', lastName: 'Owner' },
    });
    const outbox = path.join(dataDir, 'outbox');
    const deadline = Date.now() + scaled(60_000);
    while ((await filesUnder(outbox)).length === 0) {
      if (Date.now() > deadline) throw new Error('no mail was written to DATA_DIR/outbox');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const archive = path.join(archiveDir, 'portal.backup');
    await run(process.execPath, [backupCliFile, 'backup', archive], {
      env: { PATH: process.env.PATH ?? '', ...portalEnv(dataDir, database.url) },
    });
    expect((await stat(archive)).mode & 0o777).toBe(0o600);

    expect((await filesUnder(path.join(dataDir, 'files'))).length).toBeGreaterThan(2);
    expect((await stat(path.join(dataDir, 'jwt-secret'))).isFile()).toBe(true);
    if (!databaseUrl) expect((await filesUnder(path.join(dataDir, 'pglite'))).length).toBeGreaterThan(100);
    await portal.stop();
    expect(await notOwnerOnly(dataDir)).toEqual([]);
  });
});
