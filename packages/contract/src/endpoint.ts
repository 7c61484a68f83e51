import type { z } from 'zod';
import type { PageUrl } from './pages.ts';

/**
 * Who may call an endpoint:
 * - 'public': anyone, signed in or not;
 * - 'signedIn': any signed-in user; the service scopes what it returns to the caller;
 * - 'administrator': the administrator alone (no role's pages grant it);
 * - { pages, doctors, assistants }: the administrator, Web users whose role has one of
 *   `pages`, doctors when `doctors` is true (scoped to themselves by the service), and
 *   doctors' assistants when `assistants` is true (scoped to their doctors'; an assistant
 *   is let in only where a row says so, docs/decisions/assistants.md § Assistants).
 */
export type Access =
  'public' | 'signedIn' | 'administrator' | { pages: readonly PageUrl[]; doctors?: boolean; assistants?: boolean };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who reaches a record, within what the endpoint's access lets in:
 * - 'ownIfDoctor': a doctor their own alone (another doctor's is "not found", so ids cannot
 *   be probed), staff any;
 * - 'ownScope': a doctor always their own, whatever id they send; staff the one they ask for;
 * - 'caseDoctor': the case's doctor alone acts (another doctor: not found; staff: 403);
 * - 'self': the caller's own alone, "not found" to anyone else, the administrator included;
 * - 'ownRole': the caller's own role, otherwise the Role Permissions page (403);
 * - 'staffOnly': staff any; no doctor, not even the owner ("not found", as if it did not exist).
 */
export type RecordReach = 'ownIfDoctor' | 'ownScope' | 'caseDoctor' | 'self' | 'ownRole' | 'staffOnly';

/**
 * The records a route can act on, each named by path parameters. A row's `record` is
 * resolved in the caller's reach before its handler runs, which gets the record resolved
 * (apps/server/src/routes/records.ts), so no handler or service has to remember the check.
 */
export const recordKinds = {
  /** A case: its doctor and staff. */
  case: { params: ['caseId'], reach: 'ownIfDoctor' },
  /** A case, for what staff alone read (its internal notes): 404 to every doctor. */
  caseStaff: { params: ['caseId'], reach: 'staffOnly' },
  /** A plan version of a case, for the decision only its doctor takes. */
  casePlan: { params: ['caseId', 'planId'], reach: 'caseDoctor' },
  /** A comment pinned to a plan version, for what only the case's doctor does with it. */
  casePlanComment: { params: ['caseId', 'planId', 'commentId'], reach: 'caseDoctor' },
  /** A patient link to a plan version, for what only the case's doctor does with it. */
  casePlanShare: { params: ['caseId', 'planId', 'shareId'], reach: 'caseDoctor' },
  /** A plan version of a case, to read: the case's doctor and staff. */
  planVersion: { params: ['caseId', 'planId'], reach: 'ownIfDoctor' },
  /** A comment pinned to a plan version, for what both sides do with it (a reply): the case's doctor, their assistants, staff. */
  planComment: { params: ['caseId', 'planId', 'commentId'], reach: 'ownIfDoctor' },
  /** A progress scan of a case, to read: the case's doctor (their assistants) and staff. */
  progressScan: { params: ['caseId', 'progressScanId'], reach: 'ownIfDoctor' },
  /** Whose cases a list or the stats read: a UserId, 0 for all doctors (staff). */
  caseOwner: { params: ['userId'], reach: 'ownScope' },
  /** A case's stored files: an attachment, a message's file, a plan stage. */
  caseFile: { params: ['attachmentId'], reach: 'ownIfDoctor' },
  messageFile: { params: ['fileId'], reach: 'ownIfDoctor' },
  planFile: { params: ['stageFileId'], reach: 'ownIfDoctor' },
  /** A case form's draft: its writer's alone (docs/decisions/case-form.md § Drafts). */
  draft: { params: ['draftId'], reach: 'self' },
  /** A doctor by DoctorId, and by the doctor's UserId. */
  doctor: { params: ['id'], reach: 'ownIfDoctor' },
  doctorUser: { params: ['id'], reach: 'ownIfDoctor' },
  /** A user's profile picture, by their UserId. */
  picture: { params: ['userId'], reach: 'ownIfDoctor' },
  /** One of the caller's signed-in sessions, and one of their passkeys. */
  session: { params: ['sessionId'], reach: 'self' },
  passkey: { params: ['id'], reach: 'self' },
  /** One of the signed-in doctor's assistants, by the assistant's UserId. */
  assistant: { params: ['assistantUserId'], reach: 'self' },
  /** A role's menu. */
  roleMenu: { params: ['roleId'], reach: 'ownRole' },
} as const satisfies Record<string, { params: readonly string[]; reach: RecordReach }>;

export type RecordKind = keyof typeof recordKinds;

/**
 * How the request body travels: JSON validated by `body`, or a multipart form whose text
 * fields `body` describes and whose files `files` names (checked inside the handler, since
 * they stream).
 */
export type BodyKind = 'json' | 'multipart';

/**
 * The bytes of a stored file: answered to GET and HEAD, with the content types it may have;
 * `ranges`: one `bytes=` Range gives 206 with that part, a range outside the file 416.
 */
export interface FileAnswer {
  file: { contentTypes: readonly string[]; ranges?: boolean; description: string };
}

/**
 * A stream of Server-Sent Events (`text/event-stream`) that stays open: `events` is the
 * discriminated union of what it carries (`type` is the `event:` name, `data` its JSON).
 */
export interface StreamAnswer {
  stream: { events: z.ZodType; description: string };
}

/** What a successful answer is: JSON matching a schema, the bytes of a stored file, or an event stream. */
export type Answer = z.ZodType | FileAnswer | StreamAnswer;

export const isFileAnswer = (answer: Answer): answer is FileAnswer => 'file' in answer;
export const isStreamAnswer = (answer: Answer): answer is StreamAnswer =>
  'stream' in answer && typeof (answer as StreamAnswer).stream === 'object' && !('safeParse' in answer);
/** A JSON answer, validated by its schema (neither a file nor a stream). */
export const isJsonAnswer = (answer: Answer): answer is z.ZodType => !isFileAnswer(answer) && !isStreamAnswer(answer);

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 416 | 429 | 503;

/** A file field of a multipart endpoint, for the OpenAPI document and generated clients. */
export interface FileField {
  name: string;
  multiple?: boolean;
  required?: boolean;
  description: string;
}

/**
 * One row of the endpoint table: everything the server needs to register a route, the
 * OpenAPI document needs to describe it, and a client needs to call it.
 */
export interface Endpoint {
  method: HttpMethod;
  /** The full path with Fastify-style parameters: '/api/role/edit/:id'. */
  path: string;
  /** The OpenAPI operationId and the client's name for the call. */
  operationId: string;
  summary: string;
  tag: string;
  access: Access;
  params?: z.ZodObject;
  /**
   * The record the route acts on, named by its path parameters (`recordKinds`): the server
   * resolves it in the caller's reach before the handler. Every route whose parameters name
   * such a record declares it (apps/server/test/endpoint-table.test.ts).
   */
  record?: RecordKind;
  query?: z.ZodObject;
  bodyKind?: BodyKind;
  body?: z.ZodType;
  files?: readonly FileField[];
  answer: Answer;
  /** Answer headers worth documenting, such as X-Total-Count on paged lists. */
  answerHeaders?: Readonly<Record<string, { description: string; schema: { type: 'integer' | 'string' } }>>;
  /**
   * The error statuses (answered as `{ message, fieldErrors? }`) this endpoint can give
   * besides those `impliedErrors` adds from its access and inputs.
   */
  errors?: readonly ErrorStatus[];
  /** Other answers that are not the error shape: 202 accepted, a 503 health status, ... */
  otherAnswers?: Readonly<Partial<Record<202 | 400 | 503, { description: string; schema: z.ZodType }>>>;
  /**
   * Also taken with the interim token a sign-in answers when the caller's role requires a
   * second factor they have not set up yet (enrolment during sign-in), sent as the bearer.
   */
  acceptsEnrolmentToken?: boolean;
  /**
   * Open to a session whose user must set up a second factor first (their role came to require
   * one after they signed in), as the enrolment routes are; every other signed-in route answers
   * such a session 403 `messages.enrolmentRequired`. Signing out, for one.
   */
  beforeEnrolment?: boolean;
  /** Answers without the database or storage, so never 503 (the liveness probe). */
  isStandalone?: boolean;
}

/**
 * The error statuses every endpoint like this one can give: 400 for refused input, 401
 * without a session, 403 without the right, 413 for a body over the limit, 416 for a range
 * outside a file, 503 when the database or storage is down; then the row's own `errors`. Ascending, without the statuses `otherAnswers` describes.
 */
export function impliedErrors(endpoint: Endpoint): ErrorStatus[] {
  const { access } = endpoint;
  const statuses = new Set<ErrorStatus>(endpoint.errors);
  if (endpoint.params || endpoint.query || endpoint.body || endpoint.files) statuses.add(400);
  if (access !== 'public') statuses.add(401);
  if (access !== 'public' && access !== 'signedIn') statuses.add(403);
  // A session that must enrol a second factor first is refused all but the enrolment's routes.
  if (access === 'signedIn' && !endpoint.acceptsEnrolmentToken && !endpoint.beforeEnrolment) statuses.add(403);
  if (endpoint.body) statuses.add(413);
  if (isFileAnswer(endpoint.answer) && endpoint.answer.file.ranges) statuses.add(416);
  if (!endpoint.isStandalone) statuses.add(503);
  return [...statuses].filter((status) => !endpoint.otherAnswers?.[status as 400 | 503]).sort((a, b) => a - b);
}

/** Keeps the literal types of a table row, so clients infer params, body and answer from it. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

type Infer<T> = T extends z.ZodType ? z.infer<T> : never;
type Input<T> = T extends z.ZodType ? z.input<T> : never;

/** What a caller passes: path params, query and body as the schemas accept them. */
export type EndpointInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: Input<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodType ? { query?: Input<E['query']> } : { query?: never }) &
  (E['bodyKind'] extends 'multipart'
    ? { body: FormData }
    : E['body'] extends z.ZodType
      ? { body: Input<E['body']> }
      : { body?: never });

/** What a successful call answers: the parsed JSON, or the file or event stream as a Response. */
export type EndpointAnswer<E extends Endpoint> = E['answer'] extends z.ZodType ? Infer<E['answer']> : Response;

/** '/api/role/edit/:id' with { id: 3 } -> '/api/role/edit/3' (each value URI-encoded). */
export function buildPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
