import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, routeNotFound } from '../lib/errors.ts';

/** Database unreachable: the driver's connection errors, from either pg or PGlite. */
function isDatabaseUnavailable(error: { code?: string; message?: string }): boolean {
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08006', '08001'].includes(
      error.code ?? '',
    ) || /Connection terminated|timeout exceeded when trying to connect/i.test(error.message ?? '')
  );
}

/**
 * The client's own connection reset or closed before its request was read ("aborted",
 * ECONNRESET from Node's HTTP server): not the database, and nothing to answer.
 */
function isClientAbort(error: { code?: string; message?: string }, request: FastifyRequest): boolean {
  if (error.code !== 'ECONNRESET' && error.code !== 'ECONNABORTED') return false;
  return error.message === 'aborted' || request.raw.readableAborted || request.raw.socket?.destroyed === true;
}

/**
 * busboy's errors for a multipart body cut short or framed wrongly. They reach us as plain
 * errors through @fastify/multipart (no status), but are the client's fault, not ours.
 */
function isMalformedMultipart(error: { message?: string }): boolean {
  return /^(?:Unexpected end of multipart data|Multipart: Boundary not found|Malformed part header|.+ terminated early due to unexpected end of multipart data)$/.test(
    error.message ?? '',
  );
}

/**
 * One place turns every failure into `{ message, fieldErrors?, code?, params? }`: AppError keeps its status,
 * schema failures are 400 with the contract's messages, Fastify's own 4xx keep their text,
 * and anything else is logged and answered without its details.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((failure, request, reply) => {
    const error = failure as FastifyError;
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', error.retryAfterSeconds);
      return reply
        .status(error.status)
        .send({ message: error.message, fieldErrors: error.fieldErrors, code: error.code, params: error.params });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fieldErrors[key] ??= issue.message ?? 'Invalid value';
      }
      return reply.status(400).send({ message: error.validation[0]?.message ?? 'Invalid request', fieldErrors });
    }
    // Checked before the database list, which has ECONNRESET too: the client went away.
    if (isClientAbort(error, request)) {
      request.log.info({ err: { code: error.code, message: error.message } }, 'client aborted the request');
      return reply.status(400).send({ message: 'The request was cut short.' });
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (isDatabaseUnavailable(error as { code?: string }) || (cause && isDatabaseUnavailable(cause))) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: 'The service is temporarily unavailable. Please try again shortly.' });
    }
    if (isMalformedMultipart(error)) {
      return reply.status(400).send({ message: 'The form could not be read. Please send it again.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong. Please try again.' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(routeNotFound(request.method, request.url));
  });
});
