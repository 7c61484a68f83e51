import { scaled } from '../../../../e2e/helpers/test-time.ts';

/** One parsed Server-Sent Events frame: its `event:` name and its `data:` JSON. */
export interface StreamedEvent {
  type: string;
  data: unknown;
}

export interface EventStreamReader {
  status: number;
  headers: Headers;
  /** Every event received so far. */
  events: StreamedEvent[];
  /** Comments received (heartbeats, `connected`). */
  comments: string[];
  /** The next event matching `match` (or one already received), or an error after `timeoutMs` times the run's factor. */
  waitFor(match: (event: StreamedEvent) => boolean, timeoutMs?: number): Promise<StreamedEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens `url` as an event stream over a real socket (fetch) and parses what arrives. A
 * refused request answers its status with no events.
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: StreamedEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const parse = () => {
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trim());
      }
      if (data.length) events.push({ type, data: JSON.parse(data.join('\n')) });
    }
    for (const wake of waiters) wake();
  };
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        parse();
      }
    } catch {
      // Aborted by close().
    }
  })();
  let isEnded = false;
  void ended.then(() => {
    isEnded = true;
    for (const wake of waiters) wake();
  });
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    ended,
    close: () => abort.abort(),
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) return done(() => resolve(found));
          if (isEnded) done(() => reject(new Error('the stream ended before the event arrived')));
        };
        const timer = setTimeout(() => done(() => reject(new Error('no such event in time'))), scaled(timeoutMs));
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
}
