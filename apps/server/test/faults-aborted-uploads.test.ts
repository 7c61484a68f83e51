import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  encodeForm,
  snapshot,
  storedCaseFiles,
} from './helpers/case-factories.ts';
import { makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { waitUntil } from './helpers/wait-until.ts';

const runsPerFraction = 10;
const fractions = [0.1, 0.5, 0.9];

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const waitFor = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) =>
  waitUntil(condition, what, { timeoutMs, everyMs: 10 });

/**
 * Sends the first `fraction` of a case form (fields, a photo, a 2 MB scan) over a real
 * socket, waits until the server has stored the photo and started writing the scan, then
 * destroys the socket.
 */
async function abortUploadAt(fraction: number, filesBefore: number): Promise<void> {
  const { body, contentType } = await encodeForm(
    caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
      front: { data: await makeImage('png', 64), name: 'front.png' },
      maxillaryScan: { data: binaryStl(40_000), name: 'upper.stl' },
    }),
  );
  const request = http.request(`${baseUrl}/api/case/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${doctor.token}`, 'content-type': contentType, 'content-length': body.length },
  });
  request.on('error', () => {});
  request.write(body.subarray(0, Math.floor(body.length * fraction)));
  await waitFor(async () => (await storedCaseFiles(t)).length >= filesBefore + 2, 'the upload to reach storage');
  request.destroy();
}

/** A complete submission over the same kind of socket, to show the server still works. */
async function submitOverSocket(): Promise<Response> {
  return fetch(`${baseUrl}/api/case/add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${doctor.token}` },
    body: caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
      maxillaryScan: { data: binaryStl(50), name: 'upper.stl' },
    }),
  });
}

describe('client aborts a case upload (POST /api/case/add over a real socket)', () => {
  let runs = 0;
  let leftBehind = 0;
  afterAll(() => {
    if (runs === fractions.length * runsPerFraction && leftBehind === 0) {
      const percents = fractions.map((fraction) => `${fraction * 100}%`).join(', ');
      console.log(`[figure] aborted uploads: ${runs} runs (${percents}), 0 rows and 0 files left, server answering`);
    }
  });

  for (const fraction of fractions) {
    it(`leaves no case row, no attachment row and no file when the client goes away at ${fraction * 100}% (x${runsPerFraction})`, async () => {
      for (let run = 0; run < runsPerFraction; run++) {
        const before = await snapshot(t);
        await abortUploadAt(fraction, before.files);
        await waitFor(async () => (await storedCaseFiles(t)).length === before.files, 'the stored files to be deleted');
        const after = await snapshot(t);
        leftBehind += after.files - before.files + after.rows.cases - before.rows.cases;
        expect(after).toEqual(before);

        expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
        const submitted = await submitOverSocket();
        expect(submitted.status, await submitted.clone().text()).toBe(200);
        runs++;
      }
    });
  }
});
