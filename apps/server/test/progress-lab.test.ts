import { toothLabel } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueDigests } from '../src/mail/digest.ts';
import { caseFields, caseForm, createCaseDoctor, submitCase, type UploadFile } from './helpers/case-factories.ts';
import { planArchStages, type PlanOptions } from './helpers/dental-meshes.ts';
import { createStaff } from './helpers/factories.ts';
import { planForm, planSummaryOf, uploadPlan } from './helpers/plan-factories.ts';
import { progressScan } from './helpers/progress-scans.ts';
import { startSmtp, type SmtpPeer } from './helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * What the lab hears of progress scans (issue 42, docs/decisions/progress-scans.md § The lab's
 * mail, § Off track on the lists): a mail by each staff user's e-mail preferences when a fit
 * ends, delivered to a real SMTP peer, and the case marked "Off track" on the case lists while
 * its latest done scan has a tooth off track, with the `offTrack=true` filter.
 */

let smtp: SmtpPeer;
let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let otherDoctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let labNow: Awaited<ReturnType<typeof createStaff>>;
let labDigest: Awaited<ReturnType<typeof createStaff>>;
let labOff: Awaited<ReturnType<typeof createStaff>>;
/** The case with progress scans (in FDI numbering) and one without. */
let scanned: { caseId: number; trackingNo: string };
let unscanned: { caseId: number; trackingNo: string };

const patient = { firstname: 'Zebulon', lastname: 'Quixote' };
const plan: PlanOptions = { stages: 10, trianglesPerTooth: 4000 };
const scanSize = { trianglesPerTooth: 12_000, gumTriangles: 30_000, plan };
const stage = 9;
const onTrack = progressScan({ arch: 'upper', stage, stuck: [], seed: 1, ...scanSize });
const upperTeeth = onTrack.planned.map((tooth) => tooth.universal).sort((a, b) => a - b);
const stuckTooth = upperTeeth[3]!;
const staffEmail = (staff: { username: string }) => `${staff.username}@lab.test`;

async function newCase(fields: Record<string, string> = {}) {
  const created = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId, { ...patient, ...fields })));
  expect(created.statusCode, created.body).toBe(200);
  const { CaseId, TrackingNo } = created.json<{ CaseId: number; TrackingNo: string }>();
  return { caseId: CaseId, trackingNo: TrackingNo };
}

/** Sends a scan of the upper arch at `stage` and runs its fit; answers the scan's state. */
async function sendScan(stl: Uint8Array | Buffer): Promise<string> {
  const form = new FormData();
  form.append('stage', String(stage));
  form.append('upper', new Blob([new Uint8Array(stl)]), 'upper.stl');
  const sent = await t.as(doctor.token, {
    method: 'POST',
    url: `/api/case/${scanned.caseId}/progress-scans`,
    payload: form,
  });
  expect(sent.statusCode, sent.body).toBe(202);
  const { progressScanId } = sent.json<{ progressScanId: number }>();
  await t.app.jobs.runDue();
  const read = await t.as(doctor.token, {
    method: 'GET',
    url: `/api/case/${scanned.caseId}/progress-scans/${progressScanId}`,
  });
  return read.json<{ state: string }>().state;
}

/** The mails the SMTP peer received about a progress scan of the case, to `email`, as a reader sees them. */
async function progressMailsTo(email: string): Promise<string[]> {
  await t.app.outbox.deliverDue();
  return smtp.received
    .filter((mail) => mail.to.includes(email) && /Progress scan of case/.test(mail.text))
    .map((mail) => unfoldHeaders(mail.text));
}
/** A message with its long headers on one line again (a mailer folds a long subject over several), its lines ended by \\n. */
function unfoldHeaders(text: string): string {
  const lines = text.replace(/\r\n/g, '\n');
  const end = lines.indexOf('\n\n');
  return lines.slice(0, end).replace(/\n(?=[ \t])/g, '') + lines.slice(end);
}

interface Row {
  CaseId: number;
  Status: string;
  OffTrack: boolean;
}
/** A case list as `token` reads it: its rows and its x-total-count. */
async function list(token: string, path: string) {
  const response = await t.as(token, { method: 'GET', url: `/api/case/get_cases_by_status/${path}` });
  expect(response.statusCode, response.body).toBe(200);
  return { rows: response.json<Row[]>(), total: Number(response.headers['x-total-count']) };
}
const idsOf = (rows: Row[]) => rows.map((row) => row.CaseId);

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
  const admin = await t.adminToken();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  otherDoctor = await createCaseDoctor(t);
  [labNow, labDigest, labOff] = [await createStaff(t, [1]), await createStaff(t, [1]), await createStaff(t, [1])];
  const choose = async (token: string, progress: string) => {
    const saved = await t.as(token, {
      method: 'PUT',
      url: '/api/account/mail-preferences',
      payload: { messages: 'immediate', plans: 'immediate', status: 'immediate', progress },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  };
  await choose(labDigest.token, 'digest');
  await choose(labOff.token, 'off');
  // Each mail names the teeth in its reader's notation: one reader chose Universal, the others
  // read FDI (staff's default), as the case is numbered.
  const notation = await t.as(labNow.token, {
    method: 'PUT',
    url: '/api/account/tooth-notation',
    payload: { toothNotation: 'Universal' },
  });
  expect(notation.statusCode, notation.body).toBe(200);
  scanned = await newCase({ toothNumbering: 'FDI' });
  unscanned = await newCase();
  const stages: UploadFile[] = [...planArchStages('upper', plan)].map((data, index) => ({
    name: `upper_${String(index).padStart(2, '0')}.stl`,
    data: Buffer.from(data),
  }));
  const uploaded = await uploadPlan(t, admin, scanned.caseId, planForm(planSummaryOf(plan.stages!, 0), stages));
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const { planId } = uploaded.json<{ planId: number }>();
  await t.app.jobs.runDue();
  const approved = await t.as(doctor.token, {
    method: 'POST',
    url: `/api/case/${scanned.caseId}/plans/${planId}/approve`,
    payload: { reviewedIn3d: true, findingsAcknowledged: true },
  });
  expect(approved.statusCode, approved.body).toBe(200);
}, scaled(120_000));
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('a progress scan with a tooth off track', () => {
  const offTrackLine = (notation: 'FDI' | 'Universal') =>
    `1 of ${upperTeeth.length} teeth off track: ${toothLabel(stuckTooth, notation)}; the rest on track`;

  it('is mailed to the lab as each chose: the case, its doctor, the aligner and the summary in the reader’s notation', async () => {
    const stuck = progressScan({ arch: 'upper', stage, stuck: [stuckTooth], seed: 2, ...scanSize });
    expect(await sendScan(stuck.stl)).toBe('done');

    const [mail, ...more] = await progressMailsTo(staffEmail(labNow));
    expect(more).toEqual([]);
    expect(mail).toContain(
      `Subject: Progress scan of case ${scanned.trackingNo} at aligner ${stage}: ${offTrackLine('Universal')}`,
    );
    expect(mail).toContain('Dear Sam Staff,');
    expect(mail).toContain(
      `The progress scan of Grace Hopper's case ${scanned.trackingNo}, at aligner ${stage}, is compared with the plan: ${offTrackLine('Universal')}.\n${t.config.publicUrl}/cases/${scanned.caseId}\n`,
    );
    // No patient data, as no case mail carries any.
    expect(mail).not.toMatch(/Zebulon|Quixote/);
    // Not to staff who turned progress mails off, nor to the doctor's side (the lab's mail).
    expect(await progressMailsTo(staffEmail(labOff))).toEqual([]);
    expect(await progressMailsTo(doctor.email)).toEqual([]);

    // Kept for the daily digest, told there by its subject.
    expect(await progressMailsTo(staffEmail(labDigest))).toEqual([]);
    const tomorrow = { now: new Date(Date.now() + 86_400_000), hourUtc: new Date().getUTCHours() };
    await sendDueDigests({ db: t.app.db, outbox: t.app.outbox, publicUrl: t.config.publicUrl }, tomorrow);
    const [digest] = await progressMailsTo(staffEmail(labDigest));
    expect(digest).toContain('Subject: Your Aligner Portal digest');
    expect(digest).toContain(
      `- Progress scan of case ${scanned.trackingNo} at aligner ${stage}: ${offTrackLine('FDI')}\n`,
    );
  });

  it('marks its case Off track on the lists, and the offTrack filter finds it for the lab and its doctor only', async () => {
    const all = await list(labNow.token, 'all/0?pageSize=30');
    const offTrackOf = (caseId: number) => all.rows.find((row) => row.CaseId === caseId)?.OffTrack;
    expect(offTrackOf(scanned.caseId)).toBe(true);
    expect(offTrackOf(unscanned.caseId)).toBe(false);
    const { Status } = all.rows.find((row) => row.CaseId === scanned.caseId)!;

    for (const [token, path] of [
      [labNow.token, 'all/0?offTrack=true'],
      [labNow.token, `${Status}/0?offTrack=true&sort=TrackingNo`],
      [labNow.token, `all/0?offTrack=true&search=${scanned.trackingNo}`],
      [labNow.token, `all/${doctor.userId}?offTrack=true&pageSize=5`],
      [doctor.token, `all/${doctor.userId}?offTrack=true`],
      [doctor.token, `all/${doctor.userId}?offTrack=true&search=Quixote`],
    ] as const) {
      const found = await list(token, path);
      expect(idsOf(found.rows), path).toEqual([scanned.caseId]);
      expect(found.rows[0]!.OffTrack).toBe(true);
      expect(found.total, path).toBe(1);
    }
    // Another doctor's list, and a search for the case without a scan: none.
    expect(await list(otherDoctor.token, `all/${otherDoctor.userId}?offTrack=true`)).toEqual({ rows: [], total: 0 });
    expect(await list(labNow.token, `all/0?offTrack=true&search=${unscanned.trackingNo}`)).toEqual({
      rows: [],
      total: 0,
    });
    // The case page reads the same mark.
    const detail = await t.as(doctor.token, { method: 'GET', url: `/api/case/${scanned.caseId}` });
    expect(detail.json<{ OffTrack: boolean }>().OffTrack).toBe(true);
  });

  it('refuses any other offTrack value with a clear message', async () => {
    const refused = await t.as(labNow.token, {
      method: 'GET',
      url: '/api/case/get_cases_by_status/all/0?offTrack=yes',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Off track must be true');
  });
});

describe('a later progress scan', () => {
  it('that fails tells the lab why, and leaves the mark of the latest done scan', async () => {
    // A binary STL whose count matches its size (stored), with coordinates no thread can read.
    const nan = Buffer.alloc(84 + 50);
    nan.writeUInt32LE(1, 80);
    for (let i = 0; i < 12; i++) nan.writeFloatLE(Number.NaN, 84 + i * 4);
    expect(await sendScan(nan)).toBe('failed');
    const mails = await progressMailsTo(staffEmail(labNow));
    const failed = mails.find((mail) => mail.includes('could not be compared'));
    expect(failed).toContain(
      `Subject: Progress scan of case ${scanned.trackingNo} at aligner ${stage} could not be compared`,
    );
    expect(failed).toMatch(
      new RegExp(
        `The progress scan of Grace Hopper's case ${scanned.trackingNo}, at aligner ${stage}, could not be compared with the plan: \\S`,
      ),
    );
    expect(idsOf((await list(labNow.token, 'all/0?offTrack=true')).rows)).toEqual([scanned.caseId]);
  });

  it('with every tooth on track clears the mark, and is mailed as such', async () => {
    expect(await sendScan(onTrack.stl)).toBe('done');
    expect(await list(labNow.token, 'all/0?offTrack=true')).toEqual({ rows: [], total: 0 });
    expect(await list(doctor.token, `all/${doctor.userId}?offTrack=true`)).toEqual({ rows: [], total: 0 });
    const all = await list(labNow.token, 'all/0?pageSize=30');
    expect(all.rows.find((row) => row.CaseId === scanned.caseId)?.OffTrack).toBe(false);
    const mails = await progressMailsTo(staffEmail(labNow));
    expect(mails.at(-1)).toContain(
      `Subject: Progress scan of case ${scanned.trackingNo} at aligner ${stage}: All ${upperTeeth.length} teeth on track`,
    );
  });
});
