import type { ErrorResponse } from '@portal/contract';
import { activity } from './activity.ts';
import { sessionStore } from './session.ts';

/** A refused or failed call: the server's message and, for forms, its per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
    readonly headers?: Headers,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const apiBase = '/api';

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
}

function authorization(): Record<string, string> {
  const session = sessionStore.getValid();
  return session ? { authorization: `Bearer ${session.token}` } : {};
}

/** A 401 ends the session: the guard then sends the user to the login screen. */
function handleUnauthorized(status: number) {
  if (status === 401 && sessionStore.get()) sessionStore.clear();
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Partial<ErrorResponse> | null;
  return new ApiError(response.status, body?.message ?? response.statusText, body?.fieldErrors, response.headers);
}

/** The one way the app calls the API; every call shows the loading overlay. */
export async function apiRequest<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  activity.begin();
  try {
    const response = await fetch(`${apiBase}${path}`, {
      method: options.method ?? 'GET',
      credentials: 'include',
      signal: options.signal,
      headers: { ...authorization(), ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined),
    });
    if (!response.ok) {
      handleUnauthorized(response.status);
      throw await toApiError(response);
    }
    const data = (response.status === 204 ? undefined : await response.json()) as T;
    return { data, headers: response.headers };
  } finally {
    activity.end();
  }
}

export const api = {
  get: async <T>(path: string, signal?: AbortSignal) => (await apiRequest<T>(path, { signal })).data,
  post: async <T>(path: string, json?: unknown) => (await apiRequest<T>(path, { method: 'POST', json })).data,
  put: async <T>(path: string, json?: unknown) => (await apiRequest<T>(path, { method: 'PUT', json })).data,
  delete: async <T>(path: string) => (await apiRequest<T>(path, { method: 'DELETE' })).data,
  postForm: async <T>(path: string, form: FormData) => (await apiRequest<T>(path, { method: 'POST', form })).data,
  putForm: async <T>(path: string, form: FormData) => (await apiRequest<T>(path, { method: 'PUT', form })).data,
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A multipart upload with progress (fetch cannot report it): the overlay shows
 * '{n}% uploaded' while the bytes go out.
 */
export function uploadForm<T>(path: string, form: FormData, method: 'POST' | 'PUT' = 'POST'): Promise<T> {
  activity.begin();
  activity.progress(0);
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, `${apiBase}${path}`);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(authorization())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) activity.progress((event.loaded / event.total) * 100);
    };
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        activity.progress(100);
        resolve(body as T);
      } else {
        handleUnauthorized(request.status);
        const error = (body ?? {}) as Partial<ErrorResponse>;
        reject(new ApiError(request.status, error.message ?? 'Something went wrong...', error.fieldErrors));
      }
    };
    request.onerror = () => reject(new ApiError(0, 'The upload failed. Check your connection and try again.'));
    request.onabort = () => reject(new ApiError(0, 'The upload was cancelled.'));
    request.send(form);
  }).finally(() => activity.end());
}

/** Files and pictures are served by the API host; relative paths are used as they are. */
export const fileUrl = (path: string | null | undefined) => (path ? path : undefined);
