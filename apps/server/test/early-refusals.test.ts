import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaseDoctor } from './helpers/case-factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Issue 40, item 5: an answer given before an upload's body is read (401, 404, 413) reaches
 * a client that is still sending. The server shuts its side and reads the rest for a
 * bounded time and size before it closes (plugins/lingering-close.ts); closed at once with
 * the body unread, the connection was reset and the client saw "fetch failed" instead of
 * the status (a 404 read 4 times in 20 at 8 MB). Real HTTP on loopback.
 */

const mebibyte = 1024 * 1024;

/**
 * Node's fetch in a process of its own, as a client is: in the test's own process, the
 * server and the client take turns on one event loop and the client always read the answer
 * before the reset came. POSTs `tries` multipart forms of `bytes` (one file part of zeros,
 * made as it is sent, never held whole; or with `blob`, a FormData holding one Blob made
 * once, as a browser's form holds a picked file), `atOnce` at a time, and prints what each
 * read: its status, or the error's message and code.
 */
const fetchClient = `
const { url, method, headers, bytes, tries, atOnce, blob, json } = JSON.parse(process.argv[1]);
// One file of zeros for every try, as a browser's form holds a picked file.
const file = blob ? new Blob([new Uint8Array(bytes)]) : undefined;
function streamedForm() {
  const boundary = '----refusal' + Math.random().toString(16).slice(2);
  const encoder = new TextEncoder();
  const head = encoder.encode('--' + boundary + '\\r\\nContent-Disposition: form-data; name="scan"; filename="scan.stl"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
  const tail = encoder.encode('\\r\\n--' + boundary + '--\\r\\n');
  const chunk = new Uint8Array(64 * 1024);
  const fileBytes = bytes - head.length - tail.length;
  let sent = 0;
  let step = 'head';
  const body = new ReadableStream({
    pull(controller) {
      if (step === 'head') { controller.enqueue(head); step = 'file'; return; }
      if (step === 'file') {
        const size = Math.min(chunk.length, fileBytes - sent);
        controller.enqueue(size === chunk.length ? chunk : chunk.subarray(0, size));
        sent += size;
        if (sent === fileBytes) step = 'tail';
        return;
      }
      if (step === 'tail') { controller.enqueue(tail); step = 'done'; return; }
      controller.close();
    },
  });
  return { body, contentType: 'multipart/form-data; boundary=' + boundary };
}
function blobForm() {
  const body = new FormData();
  body.set('scan', file, 'scan.stl');
  return { body, contentType: undefined };
}
async function once() {
  const form = blob ? blobForm() : streamedForm();
  const contentType = form.contentType ? { 'content-type': form.contentType } : {};
  try {
    const response = await fetch(url, { method, body: form.body, duplex: 'half', headers: { ...contentType, ...headers } });
    // The portal's answers are JSON with a message; tus's are a line of text.
    const message = json ? (await response.json()).message : await response.text();
    return message ? response.status : 'an answer without a message';
  } catch (error) {
    return error.message + (error.cause ? ' (' + (error.cause.code ?? error.cause.message) + ')' : '');
  }
}
const results = [];
let started = 0;
await Promise.all(Array.from({ length: atOnce }, async () => {
  while (started < tries) { started++; results.push(await once()); }
}));
process.stdout.write(JSON.stringify(results));
`;

/** Runs fetchClient: how many times each outcome came, e.g. { 404: 50 } or { 404: 4, 'fetch failed (EPIPE)': 46 }. */
function fetchFromAnotherProcess(options: {
  url: string;
  headers?: Record<string, string>;
  bytes: number;
  tries: number;
  atOnce: number;
  blob?: boolean;
  method: string;
  json: boolean;
}): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', fetchClient, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A test that times out does not leave the client sending.
    const stop = () => child.kill();
    process.once('exit', stop);
    child.once('error', reject);
    child.once('close', (code) => {
      process.off('exit', stop);
      if (code !== 0) return reject(new Error(`the fetch client exited with ${code}: ${stderr}`));
      const counts: Record<string, number> = {};
      for (const result of JSON.parse(stdout) as (number | string)[]) counts[result] = (counts[result] ?? 0) + 1;
      resolve(counts);
    });
  });
}

describe('a refusal sent before a 50 MB upload is read reaches Node fetch every time', () => {
  const tries = 50;
  let t: TestApp;
  let baseUrl: string;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    adminToken = await t.adminToken();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  const post = (
    path: string,
    headers: Record<string, string> = {},
    { bytes = 50 * mebibyte, blob = false, method = 'POST', json = true } = {},
  ) => fetchFromAnotherProcess({ url: `${baseUrl}${path}`, method, headers, bytes, tries, atOnce: 5, blob, json });

  it('401: a case submitted without a token', async () => {
    expect(await post('/api/case/add')).toEqual({ 401: tries });
  });

  it('404: a plan uploaded to a case that does not exist', async () => {
    const headers = { authorization: `Bearer ${adminToken}` };
    expect(await post('/api/case/987654/plans', headers)).toEqual({ 404: tries });
  });

  it('404: the same with a form holding an 8 MB Blob, as the red team sent it (4 of 20 read)', async () => {
    // A streamed body met the reset on this route less often than a Blob's (0 of 50 read at
    // 50 MB before the fix); 8 MB, since fetch encodes a Blob's form slowly (2.5 s at 50 MB).
    const headers = { authorization: `Bearer ${adminToken}` };
    expect(await post('/api/case/987654/plans', headers, { bytes: 8 * mebibyte, blob: true })).toEqual({ 404: tries });
  });

  it('409: a resumable upload (tus) sent from the wrong offset, answered by tus itself', async () => {
    // tus writes its own answers, without `Connection: close`: Node keeps the connection and
    // reads the body whole (read 50 of 50 before the fix too). Kept so it stays so.
    const doctor = await createCaseDoctor(t);
    const created = await t.as(doctor.token, {
      method: 'POST',
      url: '/api/uploads/tus',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(50 * mebibyte),
        'upload-metadata': `filename ${Buffer.from('scan.stl').toString('base64')}`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const headers = {
      authorization: `Bearer ${doctor.token}`,
      'tus-resumable': '1.0.0',
      'content-type': 'application/offset+octet-stream',
      'upload-offset': String(mebibyte),
    };
    const path = new URL(created.headers.location!, baseUrl).pathname;
    expect(await post(path, headers, { method: 'PATCH', json: false })).toEqual({ 409: tries });
  });

  it('413: a form that declares more than it may hold', async () => {
    expect(await post('/api/doctor/add', { 'content-length': String(50 * mebibyte) })).toEqual({ 413: tries });
  });
});

interface RawConnection {
  socket: net.Socket;
  /** Everything the server sent. */
  answer: () => string;
  /** When the request was sent (Date.now()): the lingering began after it. */
  sentAt: number;
  /** Resolves once the server sent something. */
  answered: Promise<void>;
  /**
   * Resolves once the server closed its socket, with the time it did: seen on the server's
   * side, since a client that sends nothing more never hears of it.
   */
  closed: Promise<number>;
}

/** A connection to `t` that sent the head of a case submission without a token, declaring 1 GiB, and 1 KiB of it. */
async function refusedUpload(t: TestApp): Promise<RawConnection> {
  const accepted = new Promise<net.Socket>((resolve) => t.app.server.once('connection', resolve));
  const { port } = t.app.server.address() as net.AddressInfo;
  // A client mid-upload goes on sending after the server's FIN, as browsers and fetch do.
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.on('error', () => {});
  const serverSide = await accepted;
  const closed = new Promise<number>((resolve) => serverSide.once('close', () => resolve(Date.now())));
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  let markAnswered: () => void = () => {};
  const answered = new Promise<void>((resolve) => (markAnswered = resolve));
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
    markAnswered();
  });
  const sentAt = Date.now();
  socket.write(
    'POST /api/case/add HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${1024 * mebibyte}\r\n\r\n`,
  );
  socket.write(Buffer.alloc(1024));
  return { socket, answer: () => answer, sentAt, answered, closed };
}

/** Writes `chunk` every `everyMs` until the connection closes. */
async function keepSending(connection: RawConnection, chunk: Buffer, everyMs: number) {
  while (!connection.socket.destroyed && connection.socket.writable) {
    // Waits for the socket to take it: an endless client as fast as the server reads.
    await new Promise<void>((resolve) => connection.socket.write(chunk, () => resolve()));
    if (everyMs) await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('reading a refused body is bounded in time, bytes and connections', () => {
  it('a body that keeps trickling after the answer is read for the lingering time, then its connection is closed', async () => {
    const t = await createTestApp({ lingering: { totalMs: 3000, idleMs: 1000 } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const connection = await refusedUpload(t);
      void keepSending(connection, Buffer.alloc(1024), 100);
      await connection.answered;
      // Nothing else would end it: an upload route has no body deadline, and a body that
      // moves never stalls (BODY_STALL_TIMEOUT).
      const closedAt = await connection.closed;
      expect(connection.answer()).toMatch(/^HTTP\/1\.1 401 /);
      expect(connection.answer()).toMatch(/connection: close/i);
      expect(closedAt - connection.sentAt).toBeGreaterThanOrEqual(3000);
    } finally {
      await t.close();
    }
  });

  it('a client that goes quiet after the answer has its connection closed after the idle bound', async () => {
    const t = await createTestApp({ lingering: { totalMs: 600_000, idleMs: 1000 } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const connection = await refusedUpload(t);
      await connection.answered;
      const closedAt = await connection.closed;
      expect(connection.answer()).toMatch(/^HTTP\/1\.1 401 /);
      expect(closedAt - connection.sentAt).toBeGreaterThanOrEqual(1000);
    } finally {
      await t.close();
    }
  });

  it('an endless fast body is read no further than MAX_UPLOAD_BYTES', async () => {
    const t = await createTestApp({ maxUploadBytes: 8 * mebibyte, lingering: { totalMs: 600_000, idleMs: 600_000 } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const connection = await refusedUpload(t);
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024);
      void (async () => {
        while (!connection.socket.destroyed && connection.socket.writable) {
          await new Promise<void>((resolve) => connection.socket.write(chunk, () => resolve()));
          written += chunk.length;
        }
      })();
      await connection.closed;
      // The client hears of it at its next write (a reset), and stops counting.
      if (!connection.socket.destroyed) await new Promise((resolve) => connection.socket.once('close', resolve));
      expect(connection.answer()).toMatch(/^HTTP\/1\.1 401 /);
      // Not exactly 8 MiB: the bound is looked at 10 times a second, and the kernels' buffers
      // hold some; far from the 1 GiB declared.
      expect(written).toBeGreaterThanOrEqual(8 * mebibyte);
      expect(written).toBeLessThan(512 * mebibyte);
    } finally {
      await t.close();
    }
  });

  it('a lingering connection counts toward MAX_CONNECTIONS_PER_ADDRESS, and a closing server ends it at once', async () => {
    const t = await createTestApp({ maxConnectionsPerAddress: 2, lingering: { totalMs: 600_000, idleMs: 600_000 } });
    let isClosed = false;
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const lingering = [await refusedUpload(t), await refusedUpload(t)];
      for (const connection of lingering) {
        await connection.answered;
        expect(connection.answer()).toMatch(/^HTTP\/1\.1 401 /);
      }
      // A third connection from the address: closed as soon as it is accepted, unanswered.
      const third = await refusedUpload(t);
      await third.closed;
      expect(third.answer()).toBe('');
      // Shutting down does not wait for the lingering bounds (10 minutes here).
      await t.close();
      isClosed = true;
      await Promise.all(lingering.map((connection) => connection.closed));
    } finally {
      if (!isClosed) await t.close();
    }
  });
});
