import {
  errorResponse,
  impliedErrors,
  isFileAnswer,
  isJsonAnswer,
  type Endpoint,
  type EndpointAnswer,
} from '@portal/contract';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { z } from 'zod';
import type { SignedInUser } from '../auth/policy.ts';
import type { AuditConfig } from '../plugins/audit.ts';
import { recordResolver, type RecordOf } from './records.ts';

type Parsed<T> = T extends z.ZodType ? z.output<T> : unknown;

/**
 * The request a handler of `E` gets: params, query and JSON body as its schemas parsed
 * them, the caller, never null once the endpoint is not public (plugins/auth.ts refused
 * the request before the handler otherwise), and the record the row names, resolved in
 * the caller's reach (routes/records.ts).
 */
export type EndpointRequest<E extends Endpoint> = Omit<
  FastifyRequest,
  'params' | 'query' | 'body' | 'user' | 'record'
> & {
  params: Parsed<E['params']>;
  query: Parsed<E['query']>;
  body: E['bodyKind'] extends 'multipart' ? unknown : Parsed<E['body']>;
  user: E['access'] extends 'public' ? SignedInUser | null : SignedInUser;
  record: RecordOf<E>;
};

/** A handler answers the endpoint's JSON, or sends its own reply (a file, another status). */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointAnswer<E> | FastifyReply> | EndpointAnswer<E> | FastifyReply;

export interface RouteOptions {
  /** What the audit log records for this route (plugins/audit.ts). */
  audit?: AuditConfig;
  /** Runs before the body is read: for checks that must not wait for a slow body (sign-in's throttle). */
  onRequest?: onRequestAsyncHookHandler;
  preHandler?: preHandlerAsyncHookHandler;
  /** A large streamed upload: its body keeps only the stall rule, no deadline (plugins/body-stall.ts). */
  isStreamedUpload?: boolean;
  /** A JSON body's limit in bytes, for the few routes that need more than app.ts's default. */
  bodyLimit?: number;
}

/** Fastify's response schemas: the answer, the other answers, and `{ message }` for each error. */
function responseSchemas(endpoint: Endpoint): Record<number, z.ZodType> {
  const responses: Record<number, z.ZodType> = {};
  if (isJsonAnswer(endpoint.answer)) responses[200] = endpoint.answer;
  for (const [status, other] of Object.entries(endpoint.otherAnswers ?? {})) responses[Number(status)] = other.schema;
  for (const status of impliedErrors(endpoint)) responses[status] = errorResponse;
  return responses;
}

/**
 * Registers one row of the endpoint table: method, path, schemas and access all come from
 * the row, so the route, the OpenAPI document and the client cannot disagree. File answers
 * take HEAD as well, declared rather than derived (a derived HEAD answers content-length 0).
 * An event stream's handler takes the reply over (`reply.hijack()`, plugins/events.ts) and
 * answers Fastify's derived HEAD itself without opening a stream. A row's record is resolved
 * first of the preHandlers (routes/records.ts).
 */
export function route<const E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteOptions,
  handler: EndpointHandler<E>,
): void {
  const preHandler = [recordResolver(endpoint), options.preHandler].filter((hook) => hook !== undefined);
  app.route({
    method: isFileAnswer(endpoint.answer) ? [endpoint.method, 'HEAD'] : endpoint.method,
    url: endpoint.path,
    config: {
      operationId: endpoint.operationId,
      access: endpoint.access,
      audit: options.audit,
      isStreamedUpload: options.isStreamedUpload,
      acceptsEnrolmentToken: endpoint.acceptsEnrolmentToken,
      beforeEnrolment: endpoint.beforeEnrolment,
    },
    ...(options.bodyLimit && { bodyLimit: options.bodyLimit }),
    schema: {
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && endpoint.bodyKind !== 'multipart' && { body: endpoint.body }),
      response: responseSchemas(endpoint),
    },
    ...(options.onRequest && { onRequest: options.onRequest }),
    ...(preHandler.length > 0 && { preHandler }),
    handler: (request, reply) => handler(request as unknown as EndpointRequest<E>, reply),
  });
}
