import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';

/**
 * A request's path as it may be written to logs and the audit log: no query string (a case
 * search may hold a patient's name), no reset token (`/verify_token/{token}`), no patient
 * link's token (`/p/{token}`, `/api/shared/{token}`) and no uploader's file name
 * (`/case/files/{id}/{name}`, often the patient's name).
 */
export function loggablePath(url: string): string {
  return url
    .split('?')[0]!
    .replace(/(\/verify_token\/)[^/]+/, '$1[token]')
    .replace(/^(\/p\/|\/api\/shared\/)[^/]+/, '$1[token]')
    .replace(/(\/case\/files\/[^/]+\/).+/, '$1[file name]');
}

/** pino's `req` serializer: Fastify's default fields, with the path made loggable. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggablePath(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** drizzle's failed-query message ends with the bound values: patients' names, hashes, tokens. */
const hideQueryParams = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [hidden]');

/** pino's `err` serializer, without the values a failed query was run with. */
export function serializeError(error: Error) {
  const { params: _params, ...serialized } = stdSerializers.err(error) as ReturnType<typeof stdSerializers.err> & {
    params?: unknown;
  };
  return {
    ...serialized,
    message: hideQueryParams(serialized.message),
    stack: hideQueryParams(serialized.stack),
  };
}
