import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tusRoutes } from '../src/routes/uploads/tus.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

/** Changes named wholly by their path. */
const bodiless = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/sessions/end_others',
  'POST /api/permission/add/:roleId/:pageId',
  'POST /api/doctor/activate/:id',
  'POST /api/doctor/request_password_reset/:id',
  'POST /api/case/:caseId/messages/read',
  'POST /api/case/:caseId/plans/:planId/comments/:commentId/resolve',
  'POST /api/auth/passkey/options',
  'POST /api/account/second-factor/totp',
  'POST /api/account/second-factor/recovery-codes',
  'POST /api/account/second-factor/passkey/options',
  'POST /api/account/reauthenticate/passkey/options',
  'POST /api/user/:id/second-factor/reset',
]);
const multipartForms = new Set([
  'POST /api/user/add',
  'PUT /api/user/edit/:id',
  'POST /api/doctor/add',
  'PUT /api/doctor/edit/:id',
  'POST /api/case/add',
]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/docs', () => {
  it('serves the OpenAPI document generated from the routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/role/get_roles_list',
        '/api/doctor/add',
        '/api/city/get_cities_list/{id}',
      ]),
    );
    const login = document.paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('username');
  });

  it('describes every registered route with schemas for its path parameters, body and answers', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, OpenApiOperation>>;
    }>();
    const gaps: string[] = [];
    for (const { method, url } of t.app.apiRoutes) {
      if (method === 'HEAD' || url.startsWith('/api/docs')) continue;
      // tus 1.0.0, not JSON: not in the document (docs/decisions/uploads.md § Resumable uploads).
      if (tusRoutes.includes(`${method} ${url}`)) continue;
      const operation = document.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      if (!operation) {
        gaps.push(`${method} ${url}: not in the document`);
        continue;
      }
      const described = new Set(operation.parameters?.filter((p) => p.in === 'path').map((p) => p.name));
      for (const [, name] of url.matchAll(/:(\w+)/g)) {
        if (!described.has(name!)) gaps.push(`${method} ${url}: no schema for :${name}`);
      }
      const route = `${method} ${url}`;
      if (['POST', 'PUT'].includes(method) && !operation.requestBody && !bodiless.has(route)) {
        // Multipart forms are read as streams and checked against the contract's schemas by
        // the handler (lib/multipart-form.ts, services/cases/receive-case-upload.ts).
        if (!multipartForms.has(route)) gaps.push(`${route}: no body schema`);
      }
      if (!Object.keys(operation.responses ?? {}).some((status) => status.startsWith('2'))) {
        gaps.push(`${method} ${url}: no answer schema`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('serves the browsable UI with its own assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const script = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(page.body)?.[1];
    expect(script).toBeTruthy();
    const asset = await t.app.inject({ method: 'GET', url: `/api/docs/${script!.replace(/^.*static\//, 'static/')}` });
    expect(asset.statusCode).toBe(200);
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff and no-store on API answers, and no version banner', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/country/get_countries_list' });
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers.server).toBeUndefined();
  });

  it('turns off the browser features the portal does not use (Permissions-Policy), on API answers and pages', async () => {
    for (const url of ['/api/country/get_countries_list', '/api/auth/me', '/login']) {
      const policy = (await t.app.inject({ method: 'GET', url })).headers['permissions-policy'];
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        expect(policy, url).toMatch(new RegExp(`(^|, )${feature}=\\(\\)`));
      }
    }
  });

  it('sends HSTS whenever the portal is served over TLS: an https PUBLIC_URL, or https from a trusted proxy', async () => {
    const url = '/api/health';
    const hsts = (response: { headers: Record<string, unknown> }) => response.headers['strict-transport-security'];
    // Plain HTTP, and an X-Forwarded-Proto no trusted proxy vouches for: no HSTS (it would be ignored or wrong).
    expect(hsts(await t.app.inject({ method: 'GET', url }))).toBeUndefined();
    expect(hsts(await t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } }))).toBeUndefined();

    const proxied = await createTestApp({ trustProxy: '127.0.0.1' });
    try {
      const overTls = await proxied.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
      expect(hsts(overTls)).toBe('max-age=63072000; includeSubDomains');
      expect(
        hsts(await proxied.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'http' } })),
      ).toBeUndefined();
    } finally {
      await proxied.close();
    }
    const httpsPortal = await createTestApp({ publicUrl: 'https://portal.example' });
    try {
      expect(hsts(await httpsPortal.app.inject({ method: 'GET', url }))).toBe('max-age=63072000; includeSubDomains');
    } finally {
      await httpsPortal.close();
    }
  });

  it('keeps CORS closed', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/role/get_roles_list',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('request limits and hostile bodies', () => {
  it('answers 413 to a JSON body over 16 KiB', async () => {
    const token = await t.adminToken();
    const response = await t.as(token, {
      method: 'POST',
      url: '/api/role/add',
      payload: { roleName: 'x', description: 'y'.repeat(16 * 1024 + 10) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBeTruthy();
  });

  it('refuses __proto__ and constructor.prototype in JSON with 400', async () => {
    const token = await t.adminToken();
    for (const body of [
      '{"roleName":"a","__proto__":{"admin":true}}',
      '{"roleName":"a","constructor":{"prototype":{"admin":true}}}',
    ]) {
      const response = await t.as(token, {
        method: 'POST',
        url: '/api/role/add',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(response.statusCode).toBe(400);
    }
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('answers an unknown API route with 404 JSON', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/not found/);
  });
});

describe('health', () => {
  it('GET /api/health and /api/ready answer for load balancers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });
});
