/**
 * Live events benchmark: 1,000 open `GET /api/events` streams on one portal process; a
 * status change is made through the API and timed until it has arrived on every stream.
 * Prints the p99 delay and the portal's RSS per open stream, beside a bare Node HTTP
 * server in its own process holding 1,000 Server-Sent Events streams and writing the same
 * event (the baseline, measured the same way in the same run).
 *   BENCH_STREAMS=1000 BENCH_ROUNDS=30   DATABASE_URL=... to run on PostgreSQL
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { endpoints } from '@portal/contract';
import { giveApprovedPlan } from '../e2e/helpers/plans.ts';
import { freePort } from '../e2e/helpers/portal-process.ts';
import { fixed, mb, printTable, rssOf } from './lib/measure.ts';
import { benchApi, benchCaseFields, startPortalWithDoctor } from './lib/seed-api.ts';

const streamCount = Number(process.env.BENCH_STREAMS ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const statuses = ['inprogress', 'dispatched', 'delivered', 'new'] as const;
/** What each move of the cycle needs: courier and tracking number to dispatch, a reason to go back to New. */
const statusMove = (status: (typeof statuses)[number]) => ({
  status,
  ...(status === 'dispatched' && { courier: 'DHL', trackingNumber: 'JD0146' }),
  ...(status === 'new' && { reason: 'Benchmark cycle' }),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** `count` event streams on `url`; `onEvent` is called with the stream's index when a `case.status` frame arrives. */
async function openStreams(url: string, headers: Record<string, string>, count: number, onEvent: () => void) {
  const requests: http.ClientRequest[] = [];
  const opened: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    opened.push(
      new Promise((resolve, reject) => {
        const request = http.get(
          url,
          { headers: { accept: 'text/event-stream', ...headers }, agent: false },
          (response) => {
            if (response.statusCode !== 200) return reject(new Error(`stream refused: ${response.statusCode}`));
            response.setEncoding('utf8');
            let buffer = '';
            response.on('data', (chunk: string) => {
              buffer += chunk;
              let end: number;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                if (buffer.slice(0, end).startsWith('event: case.status')) onEvent();
                buffer = buffer.slice(end + 2);
              }
            });
            response.on('error', () => {});
            resolve();
          },
        );
        request.on('error', () => {});
        requests.push(request);
      }),
    );
    // Open in batches, so neither side's accept queue overflows.
    if (i % 100 === 99) await Promise.all(opened.slice(i - 99));
  }
  await Promise.all(opened);
  return { close: () => requests.forEach((request) => request.destroy()) };
}

/**
 * Times `rounds` events: each round triggers one and waits until every stream has it.
 * Returns each stream's delay per round (ms) and the time until the last stream had it.
 */
async function timeRounds(trigger: (round: number) => Promise<void>, counter: { received: number }) {
  const delays: number[] = [];
  const lastArrivals: number[] = [];
  for (let round = 0; round < rounds; round++) {
    counter.received = 0;
    const arrivals: number[] = [];
    const started = performance.now();
    (counter as { onEvent?: () => void }).onEvent = () => arrivals.push(performance.now() - started);
    await trigger(round);
    const deadline = Date.now() + 30_000;
    while (arrivals.length < streamCount) {
      if (Date.now() > deadline)
        throw new Error(`round ${round}: ${arrivals.length} of ${streamCount} streams had the event`);
      await sleep(2);
    }
    delays.push(...arrivals);
    lastArrivals.push(Math.max(...arrivals));
    await sleep(50);
  }
  return { delays, lastArrivals };
}

/** The baseline: a bare Node HTTP server holding SSE streams; POST /fire writes one event to all of them. */
async function startBareSseServer() {
  const port = await freePort();
  const script = `
    const streams = new Set();
    require('node:http').createServer((q, s) => {
      if (q.method === 'POST') {
        const frame = 'event: case.status\\ndata: ' + JSON.stringify({ caseId: 1, status: 'inprogress', at: new Date().toISOString() }) + '\\n\\n';
        for (const stream of streams) stream.write(frame);
        return s.end('{}');
      }
      s.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      s.write('retry: 3000\\n: connected\\n\\n');
      streams.add(s);
      q.on('close', () => streams.delete(s));
    }).listen(${port}, '127.0.0.1', () => console.log('up'));`;
  const child = spawn(process.execPath, ['-e', script]);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() };
}

async function measure(
  name: string,
  pid: number,
  open: (onEvent: () => void) => Promise<{ close(): void }>,
  trigger: (round: number) => Promise<void>,
) {
  const counter: { received: number; onEvent?: () => void } = { received: 0 };
  await sleep(500);
  const idle = rssOf(pid);
  const streams = await open(() => counter.onEvent?.());
  await sleep(1000);
  const withStreams = rssOf(pid);
  const { delays, lastArrivals } = await timeRounds(trigger, counter);
  streams.close();
  return {
    what: name,
    'p50 ms': fixed(percentile(delays, 50)),
    'p99 ms': fixed(percentile(delays, 99)),
    'p99 all-streams ms': fixed(percentile(lastArrivals, 99)),
    'RSS idle MB': fixed(mb(idle)),
    [`RSS ${streamCount} streams MB`]: fixed(mb(withStreams)),
    'KB per stream': fixed((withStreams - idle) / 1024 / streamCount),
  };
}

export async function runEventsBenchmark() {
  // A thousand people's streams, all from this one address: the per-address cap is for strangers.
  const { portal, adminToken, doctor, stop } = await startPortalWithDoctor('events', {
    MAX_CONNECTIONS_PER_ADDRESS: '0',
  });
  try {
    const api = benchApi(portal.baseUrl);
    const form = new FormData();
    const fields = benchCaseFields(doctor.clinicId);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const stl =
      'solid a\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid a\n';
    form.append('maxillaryScan', new Blob([stl], { type: 'model/stl' }), 'upper.stl');
    const { CaseId } = await api.call(endpoints.caseCreate, { body: form }, { token: doctor.token });
    // The cycle dispatches: that needs the doctor's approved plan (docs/decisions/plans.md § Treatment plans).
    await giveApprovedPlan(api, adminToken, doctor.token, CaseId);

    const bare = await startBareSseServer();
    const baseline = await measure(
      'bare Node HTTP server, SSE (baseline)',
      bare.pid,
      (onEvent) => openStreams(`${bare.url}/events`, {}, streamCount, onEvent),
      async () => {
        await fetch(`${bare.url}/fire`, { method: 'POST' });
      },
    );
    bare.stop();

    // Half the streams a doctor's (their own case), half staff's (every case): all get the event.
    const portalRow = await measure(
      `GET /api/events (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`,
      portal.child.pid!,
      async (onEvent) => {
        const doctorStreams = await openStreams(
          `${portal.baseUrl}/api/events`,
          { authorization: `Bearer ${doctor.token}` },
          streamCount / 2,
          onEvent,
        );
        const staffStreams = await openStreams(
          `${portal.baseUrl}/api/events`,
          { authorization: `Bearer ${adminToken}` },
          streamCount - streamCount / 2,
          onEvent,
        );
        return { close: () => (doctorStreams.close(), staffStreams.close()) };
      },
      async (round) => {
        await api.call(
          endpoints.caseStatusChange,
          { params: { caseId: CaseId }, body: statusMove(statuses[round % statuses.length]!) },
          { token: adminToken },
        );
      },
    );
    printTable(`Live events: ${streamCount} open streams, ${rounds} status changes, delay until each stream has it`, [
      baseline,
      portalRow,
    ]);
    return { baseline, portal: portalRow };
  } finally {
    await stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runEventsBenchmark();
