import {
  renderServerMessage,
  serverMessages,
  type NotFoundSubject,
  type ServerMessageCode,
  type ServerMessageParams,
} from '@portal/contract';
/** The one error type services throw; the error handler maps `status` to the answer. */
export class AppError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;
  readonly fieldErrors?: Record<string, string>;
  /** A refusal put together at run time: its code in the contract's `serverMessages`, and its values. */
  code?: ServerMessageCode;
  params?: ServerMessageParams;
  /** A 429's Retry-After, in seconds: when the caller may try again. */
  retryAfterSeconds?: number;

  constructor(
    status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    message: string,
    fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string>) =>
  new AppError(400, message, fieldErrors);
export const unauthorized = (message = 'Please sign in again.') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new AppError(403, message);
export const notFound = (what: NotFoundSubject) => coded(404, 'notFound', { what });
export const conflict = (message: string, fieldErrors?: Record<string, string>) =>
  new AppError(409, message, fieldErrors);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  Object.assign(new AppError(429, message), retryAfterSeconds === undefined ? {} : { retryAfterSeconds });

/**
 * A refusal by its code (issue 43): the answer's `message` is the English template filled in,
 * as the text always read, with `code` and `params` beside it for the reader's language.
 */
export function coded(
  status: AppError['status'],
  code: ServerMessageCode,
  params: ServerMessageParams,
  fieldErrors?: Record<string, string>,
): AppError {
  return Object.assign(new AppError(status, renderServerMessage(code, params), fieldErrors), { code, params });
}

/**
 * A coded refusal made in a worker thread (meshes/derivative-worker.ts): the structured clone
 * that carries a thread's error keeps its message and cause and drops the rest, so it crosses
 * as an Error whose cause is its status, code and values, and `codedFromThread` makes it again.
 */
export const codedAcrossThreads = (error: AppError): Error =>
  new Error(error.message, { cause: { status: error.status, code: error.code, params: error.params } });

/** The coded refusal an error from a worker thread carries (`codedAcrossThreads`), if it carries one. */
export function codedFromThread(error: unknown): AppError | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause as
    { status?: unknown; code?: unknown; params?: unknown } | undefined;
  if (typeof cause?.code !== 'string' || !Object.hasOwn(serverMessages, cause.code)) return undefined;
  const status = typeof cause.status === 'number' ? (cause.status as AppError['status']) : 400;
  return coded(status, cause.code as ServerMessageCode, (cause.params ?? {}) as ServerMessageParams);
}

/** A coded refusal whose text is also `field`'s message: the web app puts both together from the template. */
export const codedOnField = (
  status: AppError['status'],
  code: ServerMessageCode,
  params: ServerMessageParams,
  field: string,
): AppError => coded(status, code, params, { [field]: renderServerMessage(code, params) });

/** The answer for an address no route serves, as a coded refusal's: `{ message, code, params }`. */
export function routeNotFound(method: string, url: string) {
  const params = { method, path: url.split('?')[0]! };
  return { message: renderServerMessage('routeNotFound', params), code: 'routeNotFound', params };
}

/** PostgreSQL's unique_violation, raised by both drivers. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' && (!constraint || pgError.constraint === constraint);
}
