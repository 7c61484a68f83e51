import { doctorAddRequest, doctorEditRequest, pictureRemoval, userAddRequest, userEditRequest } from '@portal/contract';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../src/plugins/connection-limit.ts';
import { profileFormLimits } from '../src/routes/profile-form.ts';
import { caseFields, caseForm, createCaseDoctor, encodeForm } from './helpers/case-factories.ts';
import { doctorFields, firstCityOf, formData } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { waitUntil } from './helpers/wait-until.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * Issue 20, findings 1 and 2: bodies that are too large or too slow. Real HTTP on a
 * listening app: what is measured is what a socket sees (an answer, or the connection
 * closed), and when.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawConnection {
  socket: net.Socket;
  /** Everything the server sent. */
  answer: () => string;
  /** Resolves with the milliseconds from connecting to the server closing the connection. */
  closed: Promise<number>;
  /** Resolves once the server sent something. */
  answered: Promise<void>;
}

/** A connection to the app from `from` (a loopback address) that sent `head`. */
async function rawConnection(port: number, head: string, from = '127.0.0.1'): Promise<RawConnection> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const opened = Date.now();
  let answer = '';
  let markAnswered: () => void = () => {};
  const answered = new Promise<void>((resolve) => (markAnswered = resolve));
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
    markAnswered();
  });
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  if (head) socket.write(head);
  return { socket, answer: () => answer, closed, answered };
}

const requestHead = (method: string, url: string, headers: Record<string, string | number>) =>
  `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

/** Writes `body` a byte at a time every `everyMs` until it is sent or the connection closes. */
async function trickle(connection: RawConnection, body: Buffer, everyMs: number) {
  for (let at = 0; at < body.length && !connection.socket.destroyed; at++) {
    connection.socket.write(body.subarray(at, at + 1));
    await sleep(everyMs);
  }
}

describe('the user and doctor forms (registration among them) take a small form, not 200 fields of 1 MiB', () => {
  let t: TestApp;
  let cityId: number;
  beforeAll(async () => {
    t = await createTestApp();
    cityId = await firstCityOf(t);
  });
  afterAll(() => t?.close());

  const register = (form: FormData) => t.app.inject({ method: 'POST', url: '/api/doctor/add', payload: form });
  const registration = (overrides: Record<string, string> = {}) =>
    doctorFields({
      clinicList: JSON.stringify([
        { clinicId: 0, clinicName: 'Smile', countryId: 1, cityId, contactNo: '1', address: 'x' },
      ]),
      ...overrides,
    });

  it('the largest real form fits the limits: every field of the edit forms, and 50 clinics at their longest in 3-byte characters', async () => {
    for (const schema of [doctorAddRequest, doctorEditRequest.extend(pictureRemoval.shape)])
      expect(Object.keys(schema.shape).length + 1).toBeLessThanOrEqual(profileFormLimits.fields);
    for (const schema of [userAddRequest, userEditRequest.extend(pictureRemoval.shape)])
      expect(Object.keys(schema.shape).length + 1).toBeLessThanOrEqual(profileFormLimits.fields);
    // '診' is 3 bytes in UTF-8: the longest name, contact and address of the contract, 50 times.
    const clinic = (n: number) => ({
      clinicId: 0,
      clinicName: `${n}${'診'.repeat(198)}`,
      countryId: 1,
      cityId,
      contactNo: '1'.repeat(30),
      address: '診'.repeat(500),
    });
    const clinicList = JSON.stringify(Array.from({ length: 50 }, (_, n) => clinic(n)));
    expect(Buffer.byteLength(clinicList)).toBeGreaterThan(100 * 1024);
    const fields = registration({ clinicList, description: '診'.repeat(2000), password: '診'.repeat(128) });
    const response = await register(formData(fields));
    expect(response.statusCode, response.body).toBe(200);
  });

  it('more fields than the form has: 413 naming the reason', async () => {
    const extra = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`extra${n}`, 'x']));
    const response = await register(formData({ ...registration(), ...extra }));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('The form has more fields than it may have');
  });

  it('a field longer than the longest field of the form: 413', async () => {
    const response = await register(formData(registration({ description: 'x'.repeat(200 * 1024) })));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Field "description" is longer than the form allows');
  });

  it('fields each under the field limit whose text adds up past the form total: 413', async () => {
    const long = 'x'.repeat(100 * 1024);
    const response = await register(formData(registration({ description: long, profession: long })));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('The form has more text than it may have');
  });

  it('a body declaring more than a form can hold is refused with 413 before it is sent, and its connection closed', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const connection = await rawConnection(
      port,
      requestHead('POST', '/api/doctor/add', {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': 200 * 1024 * 1024,
      }),
    );
    await connection.closed;
    expect(connection.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(connection.answer()).toContain('The form is larger than it may be');
    expect(connection.answer()).toMatch(/connection: close/i);
  });
});

describe('small JSON bodies: 16 KiB, drafts excepted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('a sign-in over 16 KiB is 413; one just under is read (401)', async () => {
    const signIn = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'nobody-here', password } });
    const over = await signIn('x'.repeat(16 * 1024));
    expect(over.statusCode).toBe(413);
    // The contract's password is at most 1024 characters: 16 KiB is far above any real sign-in.
    expect((await signIn('x'.repeat(1024))).statusCode).toBe(401);
  });

  it('a case draft near its 64 KB limit is still saved', async () => {
    const { token } = await createCaseDoctor(t);
    const draft = { fields: { complaint: 'x'.repeat(2000), firstname: 'Pat' }, files: {} };
    const response = await t.as(token, { method: 'POST', url: '/api/case/drafts', payload: draft });
    expect(response.statusCode, response.body).toBe(200);
    const padded = JSON.stringify(draft).replace('"files"', `"files"${' '.repeat(60 * 1024)}`);
    const large = await t.as(token, {
      method: 'POST',
      url: '/api/case/drafts',
      payload: padded,
      headers: { 'content-type': 'application/json' },
    });
    expect(large.statusCode, large.body).toBe(200);
  });
});

describe('BODY_TIMEOUT: a body that is not a streamed upload has a deadline; a streamed upload that moves has none', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // The stall rule (60 s) never fires here: every body below keeps moving.
    t = await createTestApp({ bodyTimeoutSeconds: 2, bodyStallTimeoutSeconds: 60 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t?.close());

  it('a registration form trickling a byte every 500 ms is closed at its deadline, though it never stalls', async () => {
    const { body, contentType } = await encodeForm(formData(doctorFields()));
    const connection = await rawConnection(
      port,
      requestHead('POST', '/api/doctor/add', { 'content-type': contentType, 'content-length': body.length }),
    );
    void trickle(connection, body, 500);
    const closedAfter = await connection.closed;
    // 2 s plus a second per 64 KiB declared (the form is under 2 KB), sampled each 500 ms.
    expect(closedAfter).toBeGreaterThanOrEqual(1900);
    expect(closedAfter).toBeLessThan(6000);
    expect(connection.answer()).toBe('');
  });

  it('a sign-in declaring 1,000 bytes and sending one every 500 ms is closed at its deadline', async () => {
    const connection = await rawConnection(
      port,
      requestHead('POST', '/api/auth/login', { 'content-type': 'application/json', 'content-length': 1000 }),
    );
    void trickle(connection, Buffer.from(`{"username":"${'x'.repeat(980)}"}`), 500);
    const closedAfter = await connection.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(1900);
    expect(closedAfter).toBeLessThan(6000);
  });

  it('a case upload sent slowly for over twice the deadline is read to its end and answered', async () => {
    const { token, clinicId } = await createCaseDoctor(t);
    // An impression case needs no files: the form alone is a whole submission.
    const { body, contentType } = await encodeForm(caseForm(caseFields(clinicId), {}));
    const connection = await rawConnection(
      port,
      requestHead('POST', '/api/case/add', {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
        'content-length': body.length,
        connection: 'close',
      }),
    );
    const pieces = 20;
    const started = Date.now();
    for (let n = 0; n < pieces; n++) {
      connection.socket.write(
        body.subarray(Math.floor((n * body.length) / pieces), Math.floor(((n + 1) * body.length) / pieces)),
      );
      await sleep(250);
    }
    await connection.closed;
    expect(Date.now() - started).toBeGreaterThan(4000);
    expect(connection.answer()).toMatch(/^HTTP\/1\.1 200 /);
    expect(connection.answer()).toContain('Case submitted successfully');
  });
});

describe('MAX_CONNECTIONS_PER_ADDRESS: one address cannot hold every connection', () => {
  let t: TestApp;
  let port: number;
  const open: RawConnection[] = [];
  beforeAll(async () => {
    t = await createTestApp({ maxConnectionsPerAddress: 5, trustProxy: '127.0.0.3' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const connection of open) connection.socket.destroy();
    await t?.close();
  });

  const health = async (from: string) => {
    const connection = await rawConnection(port, requestHead('GET', '/api/health', { connection: 'close' }), from);
    await connection.closed;
    return connection.answer();
  };

  it('the sixth connection of 127.0.0.2 is closed unanswered at once while others are served; a closed one frees its place', async () => {
    for (let n = 0; n < 5; n++) open.push(await rawConnection(port, '', '127.0.0.2'));
    expect(await health('127.0.0.1')).toMatch(/^HTTP\/1\.1 200 /);
    const sixth = await rawConnection(port, requestHead('GET', '/api/health', {}), '127.0.0.2');
    expect(await sixth.closed).toBeLessThan(scaled(2000));
    expect(sixth.answer()).toBe('');
    open.pop()!.socket.destroy();
    // The server counts the close once it sees it: ask until the place is free (a deadline, not a count of tries).
    let answer = '';
    await waitUntil(async () => (answer = await health('127.0.0.2')) !== '', 'the freed place to be served', {
      timeoutMs: 10_000,
      everyMs: 0,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('counts an IPv4 address as itself (mapped or not) and an IPv6 one by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:0:12:1:2:3:4')).toBe('2001:db8:0:12::/64');
    expect(addressKey('2001:db8:0:12::99')).toBe('2001:db8:0:12::/64');
    expect(addressKey('2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('a proxy TRUST_PROXY names is not capped: its clients are counted by the proxy', async () => {
    for (let n = 0; n < 8; n++) open.push(await rawConnection(port, '', '127.0.0.3'));
    expect(await health('127.0.0.3')).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('anonymous attempts (sign-in, password reset) are counted before their bodies are read', () => {
  let t: TestApp;
  let port: number;
  const held: RawConnection[] = [];
  beforeAll(async () => {
    t = await createTestApp({ loginAttemptsPerAddress: 3 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const connection of held) connection.socket.destroy();
    await t?.close();
  });

  it.each(['/api/auth/login', '/api/doctor/reset_password'])(
    'POST %s: three whose bodies never come, and the fourth from that address is 429 at once, its connection closed',
    async (url) => {
      const head = requestHead('POST', url, { 'content-type': 'application/json', 'content-length': 100 });
      const waiting = [];
      for (let n = 0; n < 3; n++) waiting.push(await rawConnection(port, `${head}{"u`));
      held.push(...waiting);
      const fourth = await rawConnection(port, `${head}{"u`);
      await fourth.closed;
      expect(fourth.answer()).toMatch(/^HTTP\/1\.1 429 /);
      expect(fourth.answer()).toMatch(/retry-after: \d+/i);
      // The three before it are still waiting for their bodies, unanswered.
      for (const connection of waiting) expect(connection.answer()).toBe('');
    },
  );
});
