import {
  endpoints,
  endpointTags,
  errorResponse,
  impliedErrors,
  isFileAnswer,
  isStreamAnswer,
  type Endpoint,
  type ErrorStatus,
  type FileAnswer,
  type StreamAnswer,
} from '@portal/contract';
import { z } from 'zod';
import { TOKEN_COOKIE } from './auth.ts';

type JsonSchema = Record<string, unknown>;

/** The shared error answers, by status: every operation refers to these. */
const errorAnswers: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'The input is refused; fieldErrors names each bad field' },
  401: { name: 'Unauthorized', description: 'Not signed in, or the session has ended' },
  403: { name: 'Forbidden', description: "The caller's role does not have this page" },
  404: { name: 'NotFound', description: 'No such record, or not one the caller may see' },
  409: { name: 'Conflict', description: 'The change conflicts with existing data' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the server accepts' },
  415: { name: 'UnsupportedMediaType', description: 'The body or a file is not of an accepted type' },
  416: { name: 'RangeNotSatisfiable', description: 'The requested range is not in the file' },
  429: { name: 'TooManyRequests', description: 'Too many attempts; try again after Retry-After seconds' },
  503: { name: 'ServiceUnavailable', description: 'The database or storage is unreachable' },
};

const errorRef = { $ref: '#/components/schemas/Error' };

/** A zod schema as JSON Schema: `input` for what a client sends, `output` for what it receives. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Whether a field may be left out: what its schema does with nothing, the only sure test for preprocessed fields. */
const isOptional = (schema: z.ZodType) => schema.safeParse(undefined).success;

const shapeOf = (schema: z.ZodType) => (schema as z.ZodObject).shape as Record<string, z.ZodType>;

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function parameters(endpoint: Endpoint) {
  const inPath = Object.entries(endpoint.params ? shapeOf(endpoint.params) : {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema(schema, 'output'),
  }));
  const inQuery = Object.entries(endpoint.query ? shapeOf(endpoint.query) : {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !isOptional(schema),
    schema: jsonSchema(schema, 'output'),
  }));
  const range =
    isFileAnswer(endpoint.answer) && endpoint.answer.file.ranges ? [{ $ref: '#/components/parameters/Range' }] : [];
  return [...inPath, ...inQuery, ...range];
}

/** A multipart form: its text fields (objects and arrays as JSON text) and its binary file fields. */
function multipartBody(endpoint: Endpoint) {
  const fields = endpoint.body ? shapeOf(endpoint.body) : {};
  const properties: Record<string, JsonSchema> = Object.fromEntries(
    Object.entries(fields).map(([name, schema]) => [name, jsonSchema(schema, 'input')]),
  );
  const required = Object.entries(fields)
    .filter(([, schema]) => !isOptional(schema))
    .map(([name]) => name);
  for (const file of endpoint.files ?? []) {
    const binary = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };
    properties[file.name] = file.multiple
      ? { type: 'array', items: binary, description: file.description }
      : { ...binary, description: file.description };
    if (file.required) required.push(file.name);
  }
  const encoding = Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => schema.type === 'array' && !(schema.items as JsonSchema).format)
      .map(([name]) => [name, { contentType: 'application/json' }]),
  );
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', properties, ...(required.length > 0 && { required }) },
        ...(Object.keys(encoding).length > 0 && { encoding }),
      },
    },
  };
}

function requestBody(endpoint: Endpoint) {
  if (endpoint.bodyKind === 'multipart') return multipartBody(endpoint);
  if (!endpoint.body) return undefined;
  return { required: true, content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } } };
}

function fileAnswers({ file }: FileAnswer) {
  const content = Object.fromEntries(
    file.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary', contentMediaType: type } }]),
  );
  const headers = { 'Content-Disposition': { $ref: '#/components/headers/ContentDisposition' } };
  return {
    200: { description: file.description, headers, content },
    ...(file.ranges && {
      206: {
        description: 'The requested byte range of the file',
        headers: { ...headers, 'Content-Range': { $ref: '#/components/headers/ContentRange' } },
        content,
      },
    }),
  };
}

/**
 * An event stream: `text/event-stream` text; the JSON Schema of the events it carries (a
 * union on `type`, the `event:` name, with `data` the JSON of the `data:` line) is given as
 * the schema the text's events follow (`x-events`), since OpenAPI 3.1 has no item schema.
 */
function streamAnswers({ stream }: StreamAnswer) {
  return {
    200: {
      description: stream.description,
      content: {
        'text/event-stream': {
          schema: { type: 'string', description: 'Server-Sent Events frames: `event: <type>` and `data: <JSON>`' },
          'x-events': jsonSchema(stream.events, 'output'),
        },
      },
    },
  };
}

function answers(endpoint: Endpoint) {
  const success = isFileAnswer(endpoint.answer)
    ? fileAnswers(endpoint.answer)
    : isStreamAnswer(endpoint.answer)
      ? streamAnswers(endpoint.answer)
      : {
          200: {
            description: 'Success',
            ...(endpoint.answerHeaders && {
              headers: Object.fromEntries(
                Object.keys(endpoint.answerHeaders).map((name) => [
                  name,
                  { $ref: `#/components/headers/${name.replaceAll('-', '')}` },
                ]),
              ),
            }),
            content: { 'application/json': { schema: jsonSchema(endpoint.answer, 'output') } },
          },
        };
  const others = Object.fromEntries(
    Object.entries(endpoint.otherAnswers ?? {}).map(([status, other]) => [
      status,
      {
        description: other.description,
        content: { 'application/json': { schema: jsonSchema(other.schema, 'output') } },
      },
    ]),
  );
  const errors = Object.fromEntries(
    impliedErrors(endpoint).map((status) => [status, { $ref: `#/components/responses/${errorAnswers[status].name}` }]),
  );
  return { ...success, ...others, ...errors };
}

/** Public endpoints need nothing; the cookie signs in GET and HEAD only (plugins/auth.ts). */
function security(endpoint: Endpoint) {
  if (endpoint.access === 'public') return [];
  return endpoint.method === 'GET' ? [{ bearerAuth: [] }, { cookieAuth: [] }] : [{ bearerAuth: [] }];
}

function operation(endpoint: Endpoint) {
  const body = requestBody(endpoint);
  const params = parameters(endpoint);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: security(endpoint),
    ...(params.length > 0 && { parameters: params }),
    ...(body && { requestBody: body }),
    responses: answers(endpoint),
  };
}

/** Every answer header the table names, once. */
function answerHeaderComponents() {
  const headers: Record<string, unknown> = {};
  for (const endpoint of Object.values(endpoints) as Endpoint[]) {
    for (const [name, header] of Object.entries(endpoint.answerHeaders ?? {})) {
      headers[name.replaceAll('-', '')] = header;
    }
  }
  return headers;
}

const jsonError = { content: { 'application/json': { schema: errorRef } } };

/** The OpenAPI 3.1 document of the whole API, built from the contract's endpoint table. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of Object.values(endpoints) as Endpoint[]) {
    (paths[openApiPath(endpoint.path)] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Aligner Portal API',
      version: '1.0.0',
      description:
        'Cases, doctors and administration of the Aligner Portal. Every error answers `{ message, fieldErrors?, code?, params? }`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The portal that serves this document' }],
    tags: endpointTags,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token answered by POST /api/auth/login',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: TOKEN_COOKIE,
          description: 'The httpOnly cookie set at sign-in; accepted for GET and HEAD only (pictures, downloads)',
        },
      },
      schemas: { Error: jsonSchema(errorResponse, 'output') },
      responses: Object.fromEntries(
        Object.entries(errorAnswers).map(([status, { name, description }]) => [
          name,
          status === '429'
            ? { description, headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }, ...jsonError }
            : { description, ...jsonError },
        ]),
      ),
      parameters: {
        Range: {
          name: 'Range',
          in: 'header',
          required: false,
          description: 'One byte range, e.g. `bytes=0-1023`; answered with 206',
          schema: { type: 'string', pattern: '^bytes=' },
        },
      },
      headers: {
        ...answerHeaderComponents(),
        RetryAfter: { description: 'Seconds until another attempt is counted', schema: { type: 'integer' } },
        ContentDisposition: {
          description: 'inline for JPEG and PNG, attachment otherwise, with the file name',
          schema: { type: 'string' },
        },
        ContentRange: { description: 'Which bytes of the file this answer holds', schema: { type: 'string' } },
      },
    },
  };
}
