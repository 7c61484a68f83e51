import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { binaryStl, caseFields, caseForm, encodeForm } from './helpers/case-factories.ts';
import { portalEnv, portalJson, seededDatabase } from './helpers/portal-process-api.ts';
import { testAdmin } from './helpers/test-app.ts';
import { filesUnder } from './helpers/stored-files.ts';
import { waitUntil } from './helpers/wait-until.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(150_000) });

/**
 * The real server killed (SIGKILL) with a case upload half written, then started again with
 * ORPHAN_FILE_GRACE as production has it: nothing the killed upload wrote is left a minute
 * later. On PGlite with files in DATA_DIR the start itself sweeps every orphan (nothing else
 * can be writing); on PostgreSQL, where another process might be mid-upload, the orphans
 * wait out the grace and the periodic sweep (SWEEP_INTERVAL) takes them, without a restart.
 */
const databaseUrl = process.env.DATABASE_URL;
/** PostgreSQL: a grace the restart fits in, and a sweep every 2 s, so a minute is plenty. */
const graceSeconds = 15;

let dataDir: string;
let env: Record<string, string>;
let dropDatabase = async () => {};
let portal: PortalProcess;

const { callJson, login, createDoctor } = portalJson(() => portal);

const storedCaseFiles = () => filesUnder(path.join(dataDir, 'files', 'cases'));

const waitFor = (condition: () => Promise<boolean>, what: string, timeoutMs: number) =>
  waitUntil(condition, what, { timeoutMs, everyMs: 100 });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-sweep-'));
  const database = await seededDatabase(dataDir, 'portal_sweep');
  dropDatabase = database.drop;
  env = {
    ...portalEnv(dataDir, database.url),
    // PGlite: the default grace (a day), which the start need not wait for.
    ...(databaseUrl ? { ORPHAN_FILE_GRACE: String(graceSeconds) } : {}),
    SWEEP_INTERVAL: '2',
  };
  portal = await startPortal(env, { quiet: true });
}, scaled(120_000));

afterAll(async () => {
  await portal?.stop();
  // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
  await stopStartedProcesses();
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`a process killed mid-upload (${databaseUrl ? 'PostgreSQL: the periodic sweep' : 'PGlite: the start sweep'})`, () => {
  it('leaves no orphaned file a minute after the restart (SIGKILL with half a 20 MB scan written)', async () => {
    const adminToken = await login(testAdmin.username, testAdmin.password);
    const { token, clinicId } = await createDoctor(adminToken, 'Sweep Clinic');

    const scan = binaryStl(400_000); // 20 MB
    const { body, contentType } = await encodeForm(
      caseForm(caseFields(clinicId, { impressionType: 'Digital Impression' }), {
        maxillaryScan: { data: scan, name: 'upper.stl' },
      }),
    );
    const request = http.request(`${portal.baseUrl}/api/case/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': body.length },
    });
    request.on('error', () => {});
    const half = Math.floor(body.length / 2);
    for (let written = 0; written < half; written += 1024 * 1024) {
      if (!request.write(body.subarray(written, Math.min(half, written + 1024 * 1024)))) await once(request, 'drain');
    }
    await waitFor(
      async () => (await storedCaseFiles()).some((file) => file.size >= scan.length * 0.4),
      'half the scan to be written',
      20_000,
    );
    portal.child.kill('SIGKILL');
    if (portal.child.exitCode === null && portal.child.signalCode === null) await once(portal.child, 'exit');
    const leftBehind = await storedCaseFiles();
    expect(leftBehind.length).toBeGreaterThan(0);
    const newestLeft = Math.max(...leftBehind.map((file) => file.modified));

    const restartedAt = Date.now();
    portal = await startPortal(env, { quiet: true });
    const startedAfterMs = Date.now() - restartedAt;
    const afterStart = (await storedCaseFiles()).length;
    if (databaseUrl) {
      // Still within the grace when the start swept: another process could have been writing them.
      if (Date.now() < newestLeft + (graceSeconds - 1) * 1000) expect(afterStart).toBe(leftBehind.length);
    } else {
      expect(afterStart).toBe(0);
    }
    await waitFor(async () => (await storedCaseFiles()).length === 0, 'the orphans to be swept', 60_000);
    const sweptAfterMs = Date.now() - restartedAt;
    expect(await callJson<unknown[]>('GET', '/case/get_cases_by_status/all/0', { token: adminToken })).toEqual([]);
    console.log(
      `[figure] killed mid-upload, restarted: ${leftBehind.length} orphaned files, ` +
        `${leftBehind.length - afterStart} swept by the start (${startedAfterMs} ms), ` +
        `none left ${(sweptAfterMs / 1000).toFixed(1)} s after the restart (ORPHAN_FILE_GRACE ${env.ORPHAN_FILE_GRACE ?? '24h'}, SWEEP_INTERVAL 2 s)`,
    );
  });
});
