import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  createApiClient,
  defineEndpoint,
  endpoints,
  InvalidAnswerError,
  type ApiClientOptions,
} from '../src/index.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
}

/** A fetch that records what it was sent and answers with the given Response. */
function fakeFetch(answer: () => Response) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init: RequestInit = {}) => {
    sent.push({
      url: String(url),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
    });
    return answer();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' }, ...init });

function clientAnswering(answer: () => Response, options: ApiClientOptions = {}) {
  const { fetch, sent } = fakeFetch(answer);
  return { client: createApiClient({ baseUrl: 'http://portal.test', fetch, ...options }), sent };
}

const role = { RoleId: 3, RoleName: 'Lab', Description: 'Lab staff', RequiresSecondFactor: false };

describe('createApiClient: the request', () => {
  it('fills path parameters, URI-encoded, after the base URL', async () => {
    const { client, sent } = clientAnswering(() => json({ success: true, message: 'ok' }));
    await client.call(endpoints.doctorVerifyResetToken, { params: { token: 'a/b c?' } });
    expect(sent[0]!.url).toBe('http://portal.test/api/doctor/verify_token/a%2Fb%20c%3F');
    expect(sent[0]!.method).toBe('GET');
  });

  it('adds the query without undefined or null values, encoded', async () => {
    const { client, sent } = clientAnswering(() => json([]));
    await client.call(endpoints.caseList, {
      params: { status: 'new', userId: 0 },
      query: { page: 2, pageSize: 10, search: 'Ann & Bo', sort: undefined },
    });
    expect(sent[0]!.url).toBe(
      'http://portal.test/api/case/get_cases_by_status/new/0?page=2&pageSize=10&search=Ann+%26+Bo',
    );
  });

  it('sends a JSON body with its content type, and the bearer token', async () => {
    const { client, sent } = clientAnswering(() => json({ message: 'Saved', RoleId: 4 }), { token: () => 'tok' });
    await client.call(endpoints.roleCreate, { body: { roleName: 'Lab', description: '' } });
    expect(sent[0]).toMatchObject({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
      body: JSON.stringify({ roleName: 'Lab', description: '' }),
    });
  });

  it("sends a multipart row's FormData as it is, leaving the boundary to fetch", async () => {
    const { client, sent } = clientAnswering(() => json({ message: 'Saved' }));
    const form = new FormData();
    form.append('username', 'ada');
    await client.call(endpoints.userUpdate, { params: { id: 7 }, body: form }, { token: 'own' });
    expect(sent[0]!.url).toBe('http://portal.test/api/user/edit/7');
    expect(sent[0]!.method).toBe('PUT');
    expect(sent[0]!.body).toBe(form);
    expect(sent[0]!.headers).toEqual({ authorization: 'Bearer own' });
  });

  it('refuses to build a path without its parameters', async () => {
    const { client, sent } = clientAnswering(() => json({ message: 'ok' }));
    await expect(client.call(endpoints.roleDelete, { params: {} as { id: number } })).rejects.toThrow(
      'Missing path parameter id',
    );
    expect(sent).toHaveLength(0);
  });
});

describe('createApiClient: the answer', () => {
  it("parses the answer with the row's schema (unknown keys dropped)", async () => {
    const { client } = clientAnswering(() => json([{ ...role, Extra: 'dropped' }]));
    await expect(client.call(endpoints.roleList)).resolves.toEqual([role]);
  });

  it('gives the headers along with the answer for paged lists', async () => {
    const { client } = clientAnswering(() => json([], { headers: { 'x-total-count': '42' } }));
    const { data, headers } = await client.callWithHeaders(endpoints.auditList, { query: { page: 1, pageSize: 10 } });
    expect(data).toEqual([]);
    expect(headers.get('X-Total-Count')).toBe('42');
  });

  it('throws InvalidAnswerError when the answer does not match the schema', async () => {
    const { client } = clientAnswering(() => json([{ RoleId: 'three' }]));
    const error = await client.call(endpoints.roleList).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as InvalidAnswerError).issues[0]!.path).toEqual([0, 'RoleId']);
  });

  it('returns the Response itself for a file row, unread', async () => {
    const { client } = clientAnswering(() => new Response('bytes', { headers: { 'content-type': 'image/png' } }));
    const answer = await client.call(endpoints.caseFileGet, { params: { attachmentId: 5, fileName: 'a b.png' } });
    expect(answer).toBeInstanceOf(Response);
    expect(await answer.text()).toBe('bytes');
  });

  it('accepts an empty 204 answer when the schema does', async () => {
    const noContent = defineEndpoint({
      method: 'DELETE',
      path: '/api/thing/:id',
      operationId: 'thingDelete',
      summary: 'test',
      tag: 'test',
      access: 'public',
      params: z.object({ id: z.number() }),
      answer: z.undefined(),
    });
    const { client } = clientAnswering(() => new Response(null, { status: 204 }));
    await expect(client.call(noContent, { params: { id: 1 } })).resolves.toBeUndefined();
  });
});

describe('createApiClient: refusals', () => {
  it("throws one ApiError with the server's message, field errors and headers", async () => {
    const { client } = clientAnswering(() =>
      json(
        { message: 'Role name already exists', fieldErrors: { roleName: 'Taken' } },
        { status: 409, headers: { 'retry-after': '3' } },
      ),
    );
    const error = await client
      .call(endpoints.roleCreate, { body: { roleName: 'Lab', description: '' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      message: 'Role name already exists',
      fieldErrors: { roleName: 'Taken' },
    });
    expect((error as ApiError).headers?.get('retry-after')).toBe('3');
  });

  it('falls back to the status text when the refusal has no JSON body', async () => {
    const { client } = clientAnswering(() => new Response('<html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(client.call(endpoints.roleList)).rejects.toMatchObject({
      status: 502,
      message: 'Bad Gateway',
      fieldErrors: {},
    });
  });

  it('calls onUnauthorized on a 401 only, and begin/end around every call', async () => {
    const events: string[] = [];
    let status = 401;
    const { client } = clientAnswering(() => json({ message: 'no' }, { status }), {
      onBegin: () => events.push('begin'),
      onEnd: () => events.push('end'),
      onUnauthorized: () => events.push('unauthorized'),
    });
    await expect(client.call(endpoints.logout)).rejects.toBeInstanceOf(ApiError);
    status = 403;
    await expect(client.call(endpoints.logout)).rejects.toBeInstanceOf(ApiError);
    expect(events).toEqual(['begin', 'unauthorized', 'end', 'begin', 'end']);
  });

  it('lets a network failure through as it is, still ending the call', async () => {
    const onEnd = vi.fn();
    const client = createApiClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      onEnd,
    });
    await expect(client.call(endpoints.roleList)).rejects.toThrow('Failed to fetch');
    expect(onEnd).toHaveBeenCalledOnce();
  });
});
