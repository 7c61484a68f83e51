import type { z } from 'zod';
import { buildPath, isJsonAnswer, type Endpoint, type EndpointAnswer, type EndpointInput } from './endpoint.ts';
import type { EndpointName, Endpoints } from './endpoints/index.ts';
import type { ErrorResponse } from './errors.ts';
import type { ServerMessageParams } from './server-messages.ts';

/**
 * A row of the endpoint table named by its method and path, 'GET /api/role/get_roles_list':
 * the type says what the call takes and answers, and nothing of the row's schemas is loaded.
 * The web app calls by route so that its pages load no zod (docs/decisions/speed.md § On the wire).
 */
export type Route = { [K in EndpointName]: `${Endpoints[K]['method']} ${Endpoints[K]['path']}` }[EndpointName];

type EndpointByRoute = { [K in EndpointName as `${Endpoints[K]['method']} ${Endpoints[K]['path']}`]: Endpoints[K] };

/** What a call names: a row of the endpoint table (its answer is checked) or its route (trusted). */
export type CallTarget = Endpoint | Route;
type EndpointOf<T extends CallTarget> = T extends Route ? EndpointByRoute[T] : T;

const routeParts = (route: Route) => {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as Endpoint['method'], path: route.slice(space + 1) };
};

/** A route's path with its parameters filled in: routePath('GET /api/case/:caseId', { caseId: 7 }) -> '/api/case/7'. */
export const routePath = (route: Route, params?: Record<string, unknown>) => buildPath(routeParts(route).path, params);

/** A refused call (any non-2xx answer): the server's message and, for forms, its per-field messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string>;
  readonly headers?: Headers;
  /** A refusal the server put together: its code in `serverMessages` and the values it names. */
  readonly code?: string;
  readonly params?: ServerMessageParams;

  constructor(
    status: number,
    message: string,
    fieldErrors: Record<string, string> = {},
    headers?: Headers,
    coded?: { code?: string; params?: ServerMessageParams },
  ) {
    super(message);
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.headers = headers;
    this.code = coded?.code;
    this.params = coded?.params;
    this.name = 'ApiError';
  }
}

/** A 2xx answer that does not match the endpoint's answer schema: the server and the contract disagree. */
export class InvalidAnswerError extends Error {
  readonly endpoint: Pick<Endpoint, 'method' | 'path'>;
  readonly issues: z.core.$ZodIssue[];

  constructor(endpoint: Pick<Endpoint, 'method' | 'path'>, issues: z.core.$ZodIssue[]) {
    super(`${endpoint.method} ${endpoint.path} answered outside its schema: ${JSON.stringify(issues.slice(0, 3))}`);
    this.endpoint = endpoint;
    this.issues = issues;
    this.name = 'InvalidAnswerError';
  }
}

export interface ApiClientOptions {
  /** Put before each row's path ('/api/...'): '' for the page's own origin, 'http://host:port' from Node. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The bearer token of every call, read afresh each time; a call's own `token` wins. */
  token?: () => string | null | undefined;
  credentials?: RequestInit['credentials'];
  /** Around every call, whatever its outcome, told which row is called (the web app's loading overlay). */
  onBegin?: (endpoint: Pick<Endpoint, 'method' | 'path'>) => void;
  onEnd?: (endpoint: Pick<Endpoint, 'method' | 'path'>) => void;
  /** A 401 answer, before its ApiError is thrown (the web app ends the session). */
  onUnauthorized?: () => void;
  /** A 403 answer, with its ApiError before it is thrown (the web app sends a user who must set up a second factor to do so). */
  onForbidden?: (error: ApiError) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  token?: string;
}

/** The input may be left out when the endpoint takes no params and no body. */
export type CallArgs<E extends Endpoint> =
  Record<string, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: CallOptions]
    : [input: EndpointInput<E>, options?: CallOptions];

export interface ApiClient {
  /**
   * Calls a row of the endpoint table: the parsed answer, or the Response of a file row.
   * Given the row, the answer is checked against its schema (InvalidAnswerError); given its
   * route, it is taken as the server sent it (the server checks every answer it sends).
   */
  call<T extends CallTarget>(target: T, ...args: CallArgs<EndpointOf<T>>): Promise<EndpointAnswer<EndpointOf<T>>>;
  /** The same, with the answer's headers (X-Total-Count of the paged lists). */
  callWithHeaders<T extends CallTarget>(
    target: T,
    ...args: CallArgs<EndpointOf<T>>
  ): Promise<{ data: EndpointAnswer<EndpointOf<T>>; headers: Headers }>;
}

/** '?a=1&b=x&b=y': undefined and null are left out, arrays repeat their key. */
export function toQueryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function requestBody(body: unknown): { body?: RequestInit['body']; headers: Record<string, string> } {
  if (body === undefined) return { headers: {} };
  // A multipart row's body is typed FormData; fetch sets its content type and boundary.
  if (body instanceof FormData) return { body, headers: {} };
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Partial<ErrorResponse> | null;
  return new ApiError(response.status, body?.message ?? response.statusText, body?.fieldErrors, response.headers, {
    code: typeof body?.code === 'string' ? body.code : undefined,
    params: body?.params && typeof body.params === 'object' ? body.params : undefined,
  });
}

async function readJson(response: Response): Promise<unknown> {
  const text = response.status === 204 ? '' : await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function parseAnswer(target: CallTarget, response: Response): Promise<unknown> {
  if (typeof target === 'string') {
    // A file or event stream row answers something other than JSON: its Response, as for a row.
    const isJson = response.status === 204 || /\bjson\b/.test(response.headers.get('content-type') ?? '');
    return isJson ? readJson(response) : response;
  }
  if (!isJsonAnswer(target.answer)) return response;
  const result = target.answer.safeParse(await readJson(response));
  if (!result.success) throw new InvalidAnswerError(target, result.error.issues);
  return result.data;
}

type AnyInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** One typed client for the endpoint table, used by the web app, the browser tests and the benchmarks. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { baseUrl = '', credentials } = options;
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));

  async function send(target: CallTarget, input: AnyInput = {}, call: CallOptions = {}) {
    const endpoint = typeof target === 'string' ? routeParts(target) : target;
    const url = `${baseUrl}${buildPath(endpoint.path, input.params)}${toQueryString(input.query)}`;
    const token = call.token ?? options.token?.();
    const { body, headers } = requestBody(input.body);
    options.onBegin?.(endpoint);
    try {
      const response = await fetchImpl(url, {
        method: endpoint.method,
        credentials,
        signal: call.signal,
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });
      if (!response.ok) {
        if (response.status === 401) options.onUnauthorized?.();
        const error = await toApiError(response);
        if (response.status === 403) options.onForbidden?.(error);
        throw error;
      }
      return { data: await parseAnswer(target, response), headers: response.headers };
    } finally {
      options.onEnd?.(endpoint);
    }
  }

  return {
    call: async (target, ...[input, call]) => (await send(target, input as AnyInput, call)).data as never,
    callWithHeaders: async (target, ...[input, call]) => (await send(target, input as AnyInput, call)) as never,
  };
}
