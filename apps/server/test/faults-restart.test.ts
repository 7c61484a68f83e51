import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { maxPageSize } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPortal, type PortalProcess } from '../../../e2e/helpers/portal-process.ts';
import { binaryStl, caseFields, caseForm, encodeForm, sha256, type UploadFile } from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { portalEnv, portalJson, seededDatabase } from './helpers/portal-process-api.ts';
import { testAdmin } from './helpers/test-app.ts';
import { filesUnder } from './helpers/stored-files.ts';
import { waitUntil } from './helpers/wait-until.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';
import { stopStartedProcesses } from '../../../e2e/helpers/started-processes.ts';

// The bound of its slowest test (the others need less), times the run's factor (e2e/helpers/test-time.ts).
vi.setConfig({ testTimeout: scaled(90_000) });

/**
 * The real server (`node apps/server/dist/main.js`) stopped and started again on the same
 * data: SIGTERM with an upload in flight, a restart after 50 cases, SIGKILL mid-upload and
 * the start-up sweep of the files it left. One DATA_DIR and one database for the whole file,
 * in the order written: PGlite on the PGlite pass, a fresh PostgreSQL database on the other.
 */
const databaseUrl = process.env.DATABASE_URL;
const caseCount = 50;

let dataDir: string;
let env: Record<string, string>;
let dropDatabase = async () => {};
let portal: PortalProcess;
let adminToken: string;
let doctor: { token: string; clinicId: number };
/** What was sent for every case the server accepted: CaseId -> the SHA-256 of each file. */
const sent = new Map<number, string[]>();
const startTimes: number[] = [];
const keepAliveAgent = new http.Agent({ keepAlive: true });

const { callJson, login, createDoctor: createDoctorBy } = portalJson(() => portal);
const createDoctor = () => createDoctorBy(adminToken);

function caseFiles(scan: Buffer, photo: Buffer): Record<string, UploadFile> {
  return { front: { data: photo, name: 'front.png' }, maxillaryScan: { data: scan, name: 'upper.stl' } };
}

const digitalCase = () => caseFields(doctor.clinicId, { impressionType: 'Digital Impression' });

/** A case submission written to a raw socket slice by slice, so a test can act between slices. */
async function startUpload(files: Record<string, UploadFile>) {
  const { body, contentType } = await encodeForm(caseForm(digitalCase(), files));
  const request = http.request(`${portal.baseUrl}/api/case/add`, {
    method: 'POST',
    // As a browser does: the connection is kept alive after the answer.
    agent: keepAliveAgent,
    headers: { authorization: `Bearer ${doctor.token}`, 'content-type': contentType, 'content-length': body.length },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject).once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
  });
  let written = 0;
  return {
    body,
    answer,
    request,
    /** Writes up to `fraction` of the body, `chunkBytes` at a time with `pauseMs` between. */
    async writeUpTo(fraction: number, chunkBytes: number, pauseMs = 0) {
      const end = Math.floor(body.length * fraction);
      while (written < end) {
        const chunk = body.subarray(written, Math.min(end, written + chunkBytes));
        written += chunk.length;
        if (!request.write(chunk)) await once(request, 'drain');
        if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      if (written === body.length) request.end();
    },
  };
}

const storedCaseFiles = () => filesUnder(path.join(dataDir, 'files', 'cases'));

const waitFor = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) =>
  waitUntil(condition, what, { timeoutMs, everyMs: 20 });

const exitOf = (portal: PortalProcess) =>
  portal.child.exitCode !== null
    ? Promise.resolve({ code: portal.child.exitCode, signal: portal.child.signalCode })
    : once(portal.child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal }));

/**
 * Every case the server lists, each file downloaded and hashed: returns how many cases have
 * exactly the files that were sent, byte for byte, and how many attachments there are.
 */
/** Every case the administrator is listed, page after page (a page holds at most maxPageSize). */
async function listAllCases(): Promise<{ CaseId: number }[]> {
  const rows: { CaseId: number }[] = [];
  for (let page = 1; ; page++) {
    const url = `/case/get_cases_by_status/all/0?sort=CaseId&pageSize=${maxPageSize}&page=${page}`;
    const response = await portal.api('GET', url, { token: adminToken });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    const pageRows = (await response.json()) as { CaseId: number }[];
    rows.push(...pageRows);
    const total = Number(response.headers.get('x-total-count'));
    if (pageRows.length === 0 || rows.length >= total) {
      expect(rows.length).toBe(total);
      return rows;
    }
  }
}

async function checkCases(): Promise<{ intact: number; listed: number; attachments: number }> {
  const rows = await listAllCases();
  const checked = await Promise.all(
    rows.map(async ({ CaseId }) => {
      const files = await callJson<{ FilePath: string }[]>('GET', `/case/get_cases_attachments_by_case_id/${CaseId}`, {
        token: adminToken,
      });
      const downloaded = await Promise.all(
        files.map(async (file) => {
          const response = await fetch(`${portal.baseUrl}${file.FilePath}`, {
            headers: { authorization: `Bearer ${adminToken}` },
          });
          return response.ok ? sha256(Buffer.from(await response.arrayBuffer())) : 'missing';
        }),
      );
      const isIntact = JSON.stringify(downloaded.sort()) === JSON.stringify([...(sent.get(CaseId) ?? [])].sort());
      return { isIntact, attachments: files.length };
    }),
  );
  const intact = checked.filter((result) => result.isIntact).length;
  const attachments = checked.reduce((sum, result) => sum + result.attachments, 0);
  return { intact, listed: rows.length, attachments };
}

async function start() {
  const started = Date.now();
  portal = await startPortal(env, { quiet: true });
  startTimes.push(Date.now() - started);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-restart-'));
  const database = await seededDatabase(dataDir, 'portal_restart');
  dropDatabase = database.drop;
  env = {
    ...portalEnv(dataDir, database.url),
    // Every start sweeps whatever no case refers to; only this test's uploads share the folder.
    ORPHAN_FILE_GRACE: '0',
  };
  await start();
  adminToken = await login(testAdmin.username, testAdmin.password);
  doctor = await createDoctor();
}, scaled(120_000));

afterAll(async () => {
  keepAliveAgent.destroy();
  console.log(`[figure] server starts on the same data: ${startTimes.map((ms) => `${ms} ms`).join(', ')}`);
  await portal?.stop();
  // Also what a failed or timed-out test was still starting (e2e/helpers/started-processes.ts).
  await stopStartedProcesses();
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`the real server stopped and started again (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  it(`accepts ${caseCount} cases with small files`, { timeout: scaled(60_000) }, async () => {
    const photo = await makeImage('png', 40);
    for (let batch = 0; batch < caseCount; batch += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, index) => {
          const scan = binaryStl(100 + batch + index);
          const { CaseId } = await callJson<{ CaseId: number }>('POST', '/case/add', {
            token: doctor.token,
            form: caseForm(digitalCase(), caseFiles(scan, photo)),
          });
          sent.set(CaseId, [sha256(photo), sha256(scan)]);
        }),
      );
    }
    expect(sent.size).toBe(caseCount);
  });

  it('SIGTERM: the upload in flight completes (200, stored), new connections are refused, exit code 0', async () => {
    const scan = binaryStl(160_000); // 8 MB
    const photo = await makeImage('png', 50);
    const upload = await startUpload(caseFiles(scan, photo));
    await upload.writeUpTo(0.25, 256 * 1024, 20);
    const signalledAt = Date.now();
    portal.child.kill('SIGTERM');
    const exited = exitOf(portal);
    // The listening socket closes at once; the upload's connection stays open.
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(Number(new URL(portal.baseUrl).port), '127.0.0.1');
          socket.once('connect', () => resolve(socket.destroy() && false));
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
        }),
      'new connections to be refused',
      5_000,
    );
    await upload.writeUpTo(1, 256 * 1024, 20);
    const answer = await upload.answer;
    expect(answer.status, answer.body).toBe(200);
    sent.set(JSON.parse(answer.body).CaseId as number, [sha256(photo), sha256(scan)]);
    const exit = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit within ${scaled(15_000)} ms of SIGTERM`)), scaled(15_000)),
      ),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    console.log(
      `[figure] graceful shutdown: 8 MB upload in flight at SIGTERM stored (200), new connections refused, exit 0 after ${Date.now() - signalledAt} ms`,
    );
  });

  it(`restart after ${caseCount} cases: every case present with intact files`, async () => {
    await start();
    const { intact, listed } = await checkCases();
    expect(listed).toBe(sent.size);
    expect(intact).toBe(sent.size);
    console.log(
      `[figure] restart after ${caseCount} cases: ${intact - 1} of ${caseCount} present with intact files (and the one uploaded during SIGTERM)`,
    );
  });

  it('SIGKILL mid-upload, then restart: no case without its files, orphaned files swept', async () => {
    const filesBefore = (await storedCaseFiles()).length;
    const scan = binaryStl(800_000); // 40 MB
    const upload = await startUpload(caseFiles(scan, await makeImage('png', 60)));
    upload.request.on('error', () => {});
    upload.answer.catch(() => {});
    await upload.writeUpTo(0.5, 1024 * 1024);
    // Half the scan on the server's disk (as a partial write) before it is killed.
    await waitFor(
      async () => (await storedCaseFiles()).some((file) => file.size >= scan.length * 0.4),
      'half the scan to be written',
    );
    portal.child.kill('SIGKILL');
    expect(await exitOf(portal)).toEqual({ code: null, signal: 'SIGKILL' });
    const leftBehind = (await storedCaseFiles()).length - filesBefore;
    expect(leftBehind).toBeGreaterThan(0);

    const filesAtKill = (await storedCaseFiles()).length;
    await start();
    const { intact, listed, attachments } = await checkCases();
    expect(listed).toBe(sent.size);
    expect(intact).toBe(sent.size);
    const filesAfterStart = (await storedCaseFiles()).length;
    const orphans = filesAfterStart - attachments;
    expect(orphans).toBe(0);
    console.log(
      `[figure] killed mid-upload: 40 MB scan killed at 50%, ${leftBehind} files left behind, ` +
        `orphans swept at the start: ${filesAtKill - filesAfterStart}, left: ${orphans}, cases without files: ${listed - intact}`,
    );
  });
});
