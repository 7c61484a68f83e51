import { defineEndpoint, endpoints, isFileAnswer, recordKinds, type Endpoint } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordResolver } from '../src/routes/records.ts';
import { tusRoutes } from '../src/routes/uploads/tus.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rows = Object.values(endpoints) as Endpoint[];
/** What the server should register for each row: its method, and HEAD beside GET for a file. */
const expected = rows.flatMap((row) => [
  `${row.method} ${row.path}`,
  ...(isFileAnswer(row.answer) ? [`HEAD ${row.path}`] : []),
]);

describe('the endpoint table (packages/contract/src/endpoints)', () => {
  it('has a row for every registered /api route, and every row is registered', () => {
    const registered = t.app.apiRoutes
      .filter(({ url }) => !url.startsWith('/api/docs'))
      // tus 1.0.0, not JSON: no row (docs/decisions/uploads.md § Resumable uploads).
      .filter(({ method, url }) => !tusRoutes.includes(`${method} ${url}`))
      // Fastify derives a HEAD for every GET; only file answers declare one of their own.
      .filter(({ method, url }) => method !== 'HEAD' || expected.includes(`HEAD ${url}`))
      .map(({ method, url }) => `${method} ${url}`);
    const unlisted = registered.filter((route) => !expected.includes(route)).map((route) => `${route}: no row`);
    const unregistered = expected
      .filter((route) => !registered.includes(route))
      .map((route) => `${route}: not registered`);
    expect([...unlisted, ...unregistered]).toEqual([]);
  });

  it('names each operation once, by the key it has in the table', () => {
    const keyed = Object.entries(endpoints).filter(([key, row]) => key !== row.operationId);
    expect(keyed.map(([key]) => key)).toEqual([]);
    const paths = rows.map((row) => `${row.method} ${row.path}`);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('describes the text fields and files of every multipart form', () => {
    const multipart = rows.filter((row) => row.bodyKind === 'multipart');
    expect(multipart.map((row) => `${row.method} ${row.path}`).sort()).toEqual([
      'POST /api/case/:caseId/messages',
      'POST /api/case/:caseId/plans',
      'POST /api/case/:caseId/progress-scans',
      'POST /api/case/add',
      'POST /api/doctor/add',
      'POST /api/user/add',
      'PUT /api/doctor/edit/:id',
      'PUT /api/user/edit/:id',
    ]);
    for (const row of multipart) expect([row.path, Boolean(row.body && row.files?.length)]).toEqual([row.path, true]);
  });

  // docs/decisions/access.md § Records by construction.
  it("declares the record of every route whose path names one, so it is resolved in the caller's reach", () => {
    /** Ids of records that hang from a doctor or a user, whoever the route lets in. */
    const ownedRecordParams = ['caseId', 'planId', 'draftId', 'attachmentId', 'fileId', 'stageFileId', 'sessionId'];
    const isId = (name: string) => name === 'id' || name.endsWith('Id');
    // Staff-only routes name roles, pages, users and doctors by id too: their access lets in
    // only callers who reach every such record, so access alone is the scope there.
    const isDoctorReachable = ({ access }: Endpoint) =>
      access === 'signedIn' || (typeof access === 'object' && access.doctors === true);
    const undeclared = rows.flatMap((row) => {
      const params = Object.keys(row.params?.shape ?? {});
      const resolved: readonly string[] = row.record ? recordKinds[row.record].params : [];
      const needed = params.filter(
        (name) => ownedRecordParams.includes(name) || (isDoctorReachable(row) && isId(name)),
      );
      return [
        ...needed
          .filter((name) => !resolved.includes(name))
          .map((name) => `${row.method} ${row.path}: :${name} has no record`),
        ...resolved.filter((name) => !params.includes(name)).map((name) => `${row.method} ${row.path}: no :${name}`),
      ];
    });
    expect(undeclared).toEqual([]);
  });

  it('refuses to register a record without its params, or on a public route', () => {
    const row = (fields: Partial<Endpoint>) =>
      defineEndpoint({
        method: 'GET',
        path: '/api/example/:id',
        operationId: 'example',
        summary: 'An example',
        tag: 'Example',
        access: 'signedIn',
        params: z.object({ id: z.coerce.number().int() }),
        answer: z.object({}),
        ...fields,
      });
    expect(() => recordResolver(row({ record: 'case' }))).toThrow(/needs a caller and the params caseId/);
    expect(() => recordResolver(row({ record: 'doctor', access: 'public' }))).toThrow(/needs a caller/);
    expect(recordResolver(row({ record: 'doctor' }))).toBeTypeOf('function');
    expect(recordResolver(row({}))).toBeUndefined();
  });
});
