import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: { code?: string };
}

let t: TestApp;
let port: number;
const logLines: LogLine[] = [];

beforeAll(async () => {
  t = await createTestApp({
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line) as LogLine) } },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t?.close());

/** Sends the head and the start of a multipart registration, then resets the connection (RST). */
async function resetMidBody(): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const boundary = 'x-boundary';
  socket.write(
    [
      'POST /api/doctor/add HTTP/1.1',
      'Host: 127.0.0.1',
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      'Content-Length: 1000000',
      '',
      `--${boundary}`,
      'Content-Disposition: form-data; name="profilePic"; filename="a.png"',
      'Content-Type: image/png',
      '',
      'x'.repeat(5000),
    ].join('\r\n'),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.resetAndDestroy();
}

describe('a client that resets its connection is not a database outage', () => {
  it('logs a client reset mid-body as "client aborted" at info level, never "database unavailable" at error', async () => {
    const before = logLines.length;
    await resetMidBody();
    await expect
      .poll(() => logLines.slice(before).some((line) => line.msg === 'client aborted the request'), {
        timeout: scaled(10_000),
      })
      .toBe(true);
    const lines = logLines.slice(before);
    expect(lines.filter((line) => line.msg === 'database unavailable')).toEqual([]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.find((line) => line.msg === 'client aborted the request')?.level).toBe(30);
  });
});
