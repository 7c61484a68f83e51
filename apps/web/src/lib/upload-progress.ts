import { msg } from '@lingui/core/macro';
import { ApiError } from '@portal/contract/client';
import { activity } from './activity.ts';
import { i18n } from './i18n.ts';

/** Statuses whose Response must have no body. */
const emptyStatuses = new Set([204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * fetch over XMLHttpRequest, for multipart uploads: fetch cannot report how much of the body
 * has gone out, XMLHttpRequest can, and the overlay shows '{n}% uploaded' meanwhile.
 */
export function fetchWithUploadProgress(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  activity.progress(0);
  return new Promise<Response>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(init.method ?? 'GET', String(input));
    request.withCredentials = init.credentials === 'include';
    for (const [name, value] of new Headers(init.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) activity.progress((event.loaded / event.total) * 100);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) activity.progress(100);
      const body = emptyStatuses.has(request.status) ? null : request.responseText;
      const headers = parseHeaders(request.getAllResponseHeaders());
      resolve(new Response(body, { status: request.status, statusText: request.statusText, headers }));
    };
    request.onerror = () =>
      reject(new ApiError(0, i18n._(msg`The upload failed. Check your connection and try again.`)));
    request.onabort = () => reject(new ApiError(0, i18n._(msg`The upload was cancelled.`)));
    init.signal?.addEventListener('abort', () => request.abort());
    request.send(init.body as XMLHttpRequestBodyInit | null | undefined);
  });
}
