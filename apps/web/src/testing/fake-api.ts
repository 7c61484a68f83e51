import { afterEach, vi } from 'vitest';

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

type Answer = unknown | ((request: SentRequest) => Response | unknown | Promise<Response | unknown>);

/**
 * Stands in for the server behind `fetch`: each `'METHOD /api/path'` (query left out) gets
 * the answer given, as JSON with status 200 unless the function returns a Response. Every
 * request is recorded, so a test can tell what the form sent, or that it sent nothing; one
 * with no answer is a 404, as the real server says for a route it does not have. A function may
 * answer later (a promise), as a slow network does.
 */
export function fakeApi(answers: Record<string, Answer> = {}) {
  const sent: SentRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const request: SentRequest = { method, path: url.pathname, body: readBody(init.body) };
    sent.push(request);
    const key = `${method} ${url.pathname}`;
    if (!(key in answers)) return json({ message: 'Not found' }, 404);
    const answer = answers[key];
    const result = typeof answer === 'function' ? await (answer as (request: SentRequest) => unknown)(request) : answer;
    return result instanceof Response ? result : json(result);
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    sent,
    /** What was sent to one route, in order. */
    sentTo: (route: string) => sent.filter(({ method, path }) => `${method} ${path}` === route),
    /** The requests that change something: a form that must send nothing sends none of these. */
    changes: () => sent.filter(({ method }) => method !== 'GET'),
  };
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** JSON bodies parsed, multipart bodies as a plain object of their text fields and file names. */
function readBody(body: BodyInit | null | undefined): unknown {
  if (typeof body === 'string') return JSON.parse(body);
  if (body instanceof FormData) {
    const fields: Record<string, string | string[]> = {};
    for (const [name, value] of body.entries()) {
      const text = typeof value === 'string' ? value : value.name;
      const earlier = fields[name];
      fields[name] = earlier === undefined ? text : [earlier, text].flat();
    }
    return fields;
  }
  return body ?? undefined;
}

afterEach(() => {
  vi.unstubAllGlobals();
});
