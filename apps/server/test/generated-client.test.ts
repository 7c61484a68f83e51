import { defaultLabSettings } from '@portal/contract';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { generate } from 'otplib';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryStl, caseFields, sha256 } from './helpers/case-factories.ts';
import { doctorFields, firstCityOf, latestResetTokenTo, makeImage, uniqueName } from './helpers/factories.ts';
import { planSummaryOf, stageFiles } from './helpers/plan-factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/**
 * The OpenAPI document serves real consumers: types generated from it with
 * openapi-typescript compile against a typed call file, and openapi-fetch calls every
 * operation it lists on a listening portal (JSON, multipart forms with files, downloads).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
// TypeScript 7's compiler, as `npm run typecheck` (docs/decisions/build-and-runtime.md § Typecheck with project references).
const tsc = path.join(root, 'node_modules/typescript-native/bin/tsc');

interface Document {
  paths: Record<string, Record<string, { operationId: string }>>;
}
interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}
type Call = (url: string, init?: Record<string, unknown>) => Promise<Answer>;

/** Multipart bodies as openapi-fetch sends them: files as parts, arrays of objects as JSON text. */
function toFormData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) && value.every((item) => item instanceof Blob) ? value : [value];
    for (const item of values) {
      if (item instanceof Blob) form.append(name, item, item instanceof File ? item.name : name);
      else form.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return form;
}

/** A WebAuthn answer no authenticator made. */
const madeUpCredential = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
};

const file = (data: Buffer, name: string, type: string) => new File([new Uint8Array(data)], name, { type });

let t: TestApp;
let baseUrl: string;
let dir: string;
let document: Document;
let types: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(os.tmpdir(), 'portal-client-'));
  document = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as Document;
  const blob = ts.factory.createTypeReferenceNode('Blob');
  types = astToString(
    await openapiTS(document as never, {
      // Binary parts and answers as Blob, so a form's file fields take a File.
      transform: (schema) => (schema.format === 'binary' ? blob : undefined),
    }),
  );
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a client generated from GET /api/docs/json', () => {
  it('type-checks typed JSON, multipart and download calls', async () => {
    await writeFile(path.join(dir, 'api.d.ts'), types);
    await writeFile(
      path.join(dir, 'calls.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './api';

const client = createClient<paths>({ baseUrl: 'http://portal.test' });
type UserForm = NonNullable<paths['/api/user/add']['post']['requestBody']>['content']['multipart/form-data'];
type CaseForm = NonNullable<paths['/api/case/add']['post']['requestBody']>['content']['multipart/form-data'];
const isNever = <T>(): [T] extends [never] ? true : false => undefined as never;
export const formsAreTyped: [false, false] = [isNever<UserForm>(), isNever<CaseForm>()];
export const scanIsAFile: CaseForm['maxillaryScan'] = new File([], 'upper.stl');
export const orderIsTyped: CaseForm['orderType'] = 'Refinement';

export async function addUser(picture: File): Promise<number | undefined> {
  const body: UserForm = {
    username: 'ada', firstname: 'Ada', lastname: 'Lovelace', email: 'ada@lab.test',
    mobileNo: '+1 555 0100', roleId: 1, password: 'secret-passphrase', profilePic: picture,
  };
  const { data } = await client.POST('/api/user/add', { body, bodySerializer: () => new FormData() });
  return data?.UserId;
}

export async function addRole(): Promise<string | undefined> {
  // @ts-expect-error roleName is required
  await client.POST('/api/role/add', { body: { description: 'none' } });
  const { data, error } = await client.POST('/api/role/add', { body: { roleName: 'Lab', description: '' } });
  return data?.message ?? error?.fieldErrors?.roleName;
}

export async function downloadPart(): Promise<Blob | undefined> {
  const { data } = await client.GET('/api/case/files/{attachmentId}/{fileName}', {
    params: { path: { attachmentId: 1, fileName: 'upper.stl' }, header: { Range: 'bytes=0-9' } },
    parseAs: 'blob',
  });
  return data;
}
`,
    );
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2023',
          module: 'preserve',
          moduleResolution: 'bundler',
          lib: ['es2023', 'dom'],
          types: [],
          skipLibCheck: true,
          paths: { 'openapi-fetch': [path.join(root, 'node_modules/openapi-fetch')] },
        },
        files: ['calls.ts'],
      }),
    );
    const run = spawnSync(tsc, ['-p', dir], { encoding: 'utf8', timeout: scaled(60_000) });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('performs every operation of the document on a listening portal', async () => {
    let token: string | undefined;
    const client = createClient({ baseUrl });
    client.use({
      onRequest: ({ request }) => {
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    });
    const called = new Set<string>();
    const operationIds = new Map(
      Object.entries(document.paths).flatMap(([url, operations]) =>
        Object.entries(operations).map(([method, { operationId }]) => [`${method.toUpperCase()} ${url}`, operationId]),
      ),
    );
    /** Calls one operation and expects its status; the answer's data (or error) back. */
    const call = async (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      init: Record<string, unknown>,
      status = 200,
    ) => {
      const send = (client as unknown as Record<string, Call>)[method]!;
      const answer = await send(url, init);
      expect(`${method} ${url}: ${answer.response.status}`).toBe(`${method} ${url}: ${status}`);
      called.add(operationIds.get(`${method} ${url}`) ?? `${method} ${url} (not in the document)`);
      return answer;
    };
    const multipart = { bodySerializer: toFormData };
    const json = <T>(answer: Answer) => answer.data as T;

    await call('GET', '/api/health', {});
    await call('GET', '/api/ready', {});
    token = json<{ token: string }>(
      await call('POST', '/api/auth/login', { body: { username: testAdmin.username, password: testAdmin.password } }),
    ).token;
    await call('GET', '/api/country/get_countries_list', {});
    const cityId = await firstCityOf(t);
    await call('GET', '/api/city/get_cities_list/{id}', { params: { path: { id: 1 } } });

    // Roles and their pages.
    const role = (name: string) => ({ body: { roleName: uniqueName(name), description: 'From the generated client' } });
    const { RoleId } = json<{ RoleId: number }>(await call('POST', '/api/role/add', role('lab')));
    const { RoleId: spareRoleId } = json<{ RoleId: number }>(await call('POST', '/api/role/add', role('spare')));
    await call('GET', '/api/role/get_roles_list', {});
    await call('PUT', '/api/role/edit/{id}', { params: { path: { id: RoleId } }, ...role('lab') });
    const rolePage = { params: { path: { roleId: RoleId, pageId: 1 } } };
    await call('POST', '/api/permission/add/{roleId}/{pageId}', rolePage);
    await call('DELETE', '/api/permission/delete/{roleId}/{pageId}', rolePage);
    await call('GET', '/api/permission/get_role_permissions/{roleId}', { params: { path: { roleId: RoleId } } });
    await call('GET', '/api/permission/get_menu/{roleId}', { params: { path: { roleId: -1 } } });

    // A Web user with a picture, then their picture.
    const picture = file(await makeImage('png', 64), 'me.png', 'image/png');
    const username = uniqueName('staff');
    const userForm = {
      username,
      firstname: 'Grace',
      lastname: 'Hopper',
      email: `${username}@lab.test`,
      mobileNo: '+1 555 0101',
      roleId: RoleId,
      password: 'secret-passphrase',
      profilePic: picture,
    };
    const { UserId } = json<{ UserId: number }>(await call('POST', '/api/user/add', { body: userForm, ...multipart }));
    await call('PUT', '/api/user/edit/{id}', {
      params: { path: { id: UserId } },
      body: { ...userForm, lastname: 'Murray Hopper', password: '' },
      ...multipart,
    });
    const users = json<{ UserId: number; ProfilePic: string | null }[]>(
      await call('GET', '/api/user/get_users_list', { params: { query: { search: username } } }),
    );
    const [, userId, fileName] = /^\/api\/uploads\/users\/(\d+)\/(.+)$/.exec(
      users.find((user) => user.UserId === UserId)!.ProfilePic!,
    )!;
    const stored = await call('GET', '/api/uploads/users/{userId}/{fileName}', {
      params: { path: { userId: Number(userId), fileName } },
      parseAs: 'blob',
    });
    expect((stored.data as Blob).type).toBe('image/png');

    // A doctor registers (no token), is activated by staff, and their records are read.
    const signedIn = token;
    token = undefined;
    const clinic = {
      clinicId: 0,
      clinicName: 'Smile Clinic',
      countryId: 1,
      cityId,
      contactNo: '123456',
      address: '1 Main St',
    };
    const registration = { ...doctorFields(), clinicList: [clinic], isActive: false, profilePic: picture };
    await call('POST', '/api/doctor/add', { body: registration, ...multipart });
    token = signedIn;
    const doctors = json<{ DoctorId: number; UserId: number; UserName: string }[]>(
      await call('GET', '/api/doctor/get_doctors_list', { params: { query: { search: registration.username } } }),
    );
    // A registration answers no DoctorId (alike for a taken username): found by name.
    const { DoctorId } = doctors.find((doctor) => doctor.UserName === registration.username)!;
    const doctorUserId = doctors.find((doctor) => doctor.DoctorId === DoctorId)!.UserId;
    await call('GET', '/api/doctor/get_doctor_detail_by_user_Id/{id}', { params: { path: { id: doctorUserId } } });
    const clinics = json<{ ClinicId: number }[]>(
      await call('GET', '/api/clinic/get_clinics_list_by_user_id/{id}', { params: { path: { id: doctorUserId } } }),
    );
    const doctorClinics = json<{ ClinicId: number }[]>(
      await call('GET', '/api/clinic/get_clinics_list/{id}', { params: { path: { id: DoctorId } } }),
    );
    await call('PUT', '/api/doctor/edit/{id}', {
      params: { path: { id: DoctorId } },
      body: {
        ...registration,
        clinicList: [{ ...clinic, clinicId: doctorClinics[0]!.ClinicId }],
        isActive: true,
        password: '',
        profilePic: undefined,
        removeProfilePic: 'true',
      },
      ...multipart,
    });
    await call('POST', '/api/doctor/activate/{id}', { params: { path: { id: DoctorId } } });
    await call('POST', '/api/doctor/request_password_reset/{id}', { params: { path: { id: DoctorId } } });
    await call('GET', '/api/doctor/verify_token/{token}', { params: { path: { token: 'not-a-reset-token' } } });
    await call('POST', '/api/auth/forgot_password', { body: { username: registration.email } });
    await call(
      'POST',
      '/api/doctor/reset_password',
      { body: { token: 'unknown', newPassword: 'new-secret-phrase' } },
      400,
    );
    await call('POST', '/api/email/send', { body: { to: registration.email, templateName: 'activation' } });

    // A case with real files, its lists, history, status and downloads.
    const scan = binaryStl(200);
    const caseForm = {
      ...caseFields(clinics[0]!.ClinicId, { userId: doctorUserId }),
      maxillaryScan: file(scan, 'upper arch.stl', 'application/octet-stream'),
      frontSmiling: picture,
      otherFiles: [picture, file(await makeImage('jpeg', 48), 'extra.jpg', 'image/jpeg')],
    };
    const { CaseId } = json<{ CaseId: number }>(await call('POST', '/api/case/add', { body: caseForm, ...multipart }));
    await call('GET', '/api/case/get_all_stats/{userId}', { params: { path: { userId: 0 } } });
    const list = await call('GET', '/api/case/get_cases_by_status/{status}/{userId}', {
      params: { path: { status: 'all', userId: doctorUserId }, query: { page: 1, pageSize: 10, sort: '-CreatedAt' } },
    });
    expect(list.response.headers.get('x-total-count')).toBe('1');
    const attachments = json<{ FileType: string; FilePath: string }[]>(
      await call('GET', '/api/case/get_cases_attachments_by_case_id/{caseId}', {
        params: { path: { caseId: CaseId } },
      }),
    );
    const [, attachmentId, scanName] = /^\/api\/case\/files\/(\d+)\/(.+)$/.exec(
      attachments.find((attachment) => attachment.FileType === 'MaxillaryScan')!.FilePath,
    )!;
    const filePath = { path: { attachmentId: Number(attachmentId), fileName: decodeURIComponent(scanName!) } };
    const whole = await call('GET', '/api/case/files/{attachmentId}/{fileName}', {
      params: filePath,
      parseAs: 'arrayBuffer',
    });
    expect(sha256(Buffer.from(whole.data as ArrayBuffer))).toBe(sha256(scan));
    const part = await call(
      'GET',
      '/api/case/files/{attachmentId}/{fileName}',
      { params: { ...filePath, header: { Range: 'bytes=0-9' } }, parseAs: 'arrayBuffer' },
      206,
    );
    expect(Buffer.from(part.data as ArrayBuffer)).toEqual(scan.subarray(0, 10));
    expect(part.response.headers.get('content-range')).toBe(`bytes 0-9/${scan.length}`);
    // Its viewing copy is made by a background job after the answer (mesh-views.test.ts).
    const view = await call('GET', '/api/case/file-views/{attachmentId}', {
      params: { path: { attachmentId: Number(attachmentId) } },
    });
    expect(['pending', 'ready', 'failed']).toContain((view.data as { state: string }).state);
    await call(
      'GET',
      '/api/case/file-views/{attachmentId}/mesh.glb',
      { params: { path: { attachmentId: Number(attachmentId) } }, parseAs: 'arrayBuffer' },
      (view.data as { state: string }).state === 'ready' ? 200 : 409,
    );
    // A photo's thumbnail, made on first request (case-thumbnails.test.ts).
    const photoId = Number(
      attachments.find((attachment) => attachment.FileType === 'FrontSmiling')!.FilePath.split('/')[4],
    );
    await call('GET', '/api/case/file-thumbnails/{attachmentId}', {
      params: { path: { attachmentId: photoId } },
      parseAs: 'arrayBuffer',
    });
    const caseDetail = await call('GET', '/api/case/{caseId}', { params: { path: { caseId: CaseId } } });
    expect(caseDetail.data).toMatchObject({ CaseId, planState: null, parentCaseId: null, orderType: null, orders: [] });
    // A refinement ordered from it: the new case names its parent, the parent lists it.
    const refinement = json<{ CaseId: number; TrackingNo: string }>(
      await call('POST', '/api/case/add', {
        body: { ...caseForm, parentCaseId: CaseId, orderType: 'Refinement' },
        ...multipart,
      }),
    );
    const ordered = await call('GET', '/api/case/{caseId}', { params: { path: { caseId: refinement.CaseId } } });
    expect(ordered.data).toMatchObject({ parentCaseId: CaseId, orderType: 'Refinement' });
    const parentAfter = await call('GET', '/api/case/{caseId}', { params: { path: { caseId: CaseId } } });
    expect(parentAfter.data).toMatchObject({
      orders: [{ caseId: refinement.CaseId, trackingNo: refinement.TrackingNo, orderType: 'Refinement' }],
    });

    // A treatment plan: staff upload v1 (loose STLs), the doctor sends it back, v2 is approved.
    const planCase = { params: { path: { caseId: CaseId } } };
    const planBody = () => ({
      summary: JSON.stringify(planSummaryOf(1, 0)),
      stages: stageFiles(1, 0).map((stage) => file(stage.data, stage.name, 'application/octet-stream')),
    });
    const v1 = json<{ planId: number }>(
      await call('POST', '/api/case/{caseId}/plans', { ...planCase, body: planBody(), ...multipart }),
    );
    const plans = json<{ stages: { url: string; sha256: string }[] }[]>(
      await call('GET', '/api/case/{caseId}/plans', planCase),
    );
    const [, stageFileId, stageName] = /^\/api\/case\/plan_files\/(\d+)\/(.+)$/.exec(plans[0]!.stages[0]!.url)!;
    const stageFile = await call('GET', '/api/case/plan_files/{stageFileId}/{fileName}', {
      params: { path: { stageFileId: Number(stageFileId), fileName: decodeURIComponent(stageName!) } },
      parseAs: 'arrayBuffer',
    });
    expect(sha256(Buffer.from(stageFile.data as ArrayBuffer))).toBe(plans[0]!.stages[0]!.sha256);
    // The viewer's copy of the plan is made by a background job after the answer (plan-views.test.ts).
    const planPath = { path: { caseId: CaseId, planId: v1.planId } };
    const planView = json<{ upper: { state: string } }>(
      await call('GET', '/api/case/{caseId}/plans/{planId}/views', { params: planPath }),
    );
    await call(
      'GET',
      '/api/case/{caseId}/plans/{planId}/views/{arch}/mesh.glb',
      { params: { path: { ...planPath.path, arch: 'upper' } }, parseAs: 'arrayBuffer' },
      planView.upper.state === 'ready' ? 200 : 409,
    );
    const movements = json<{ available: boolean; teeth: { tooth: number }[] }>(
      await call('GET', '/api/case/{caseId}/plans/{planId}/movements', { params: planPath }),
    );
    expect(movements.available).toBe(movements.teeth.length > 0);
    // Its stages are the same teeth moved: none has a copy of its own (plan-views.test.ts has one that does).
    const stagePath = { path: { stageFileId: Number(stageFileId) } };
    await call('GET', '/api/case/plan-file-views/{stageFileId}', { params: stagePath }, 404);
    await call('GET', '/api/case/plan-file-views/{stageFileId}/mesh.glb', { params: stagePath }, 404);
    const staffToken = token;
    token = json<{ token: string }>(
      await call('POST', '/api/auth/login', {
        body: { username: registration.username, password: registration.password },
      }),
    ).token;
    const v1Path = { path: { caseId: CaseId, planId: v1.planId } };
    const pinned = [0, 1].map(() => ({ stage: 1, arch: 'upper' as const, point: [1, 2, 3], text: 'Less here' }));
    const comments: { commentId: number }[] = [];
    for (const body of pinned) {
      comments.push(
        json<{ commentId: number }>(
          await call('POST', '/api/case/{caseId}/plans/{planId}/comments', { params: v1Path, body }),
        ),
      );
    }
    await call('DELETE', '/api/case/{caseId}/plans/{planId}/comments/{commentId}', {
      params: { path: { ...v1Path.path, commentId: comments[1]!.commentId } },
    });
    // A patient link: made, listed, opened without signing in (its plan and a copy), revoked.
    const share = json<{ shareId: number; url: string }>(
      await call('POST', '/api/case/{caseId}/plans/{planId}/shares', { params: v1Path, body: { days: 3 } }),
    );
    expect(
      json<unknown[]>(await call('GET', '/api/case/{caseId}/plans/{planId}/shares', { params: v1Path })),
    ).toHaveLength(1);
    const shareToken = new URL(share.url).pathname.slice('/p/'.length);
    await call('GET', '/api/shared/{token}', { params: { path: { token: shareToken } } });
    await call(
      'GET',
      '/api/shared/{token}/views/{arch}/mesh.glb',
      { params: { path: { token: shareToken, arch: 'upper' } }, parseAs: 'arrayBuffer' },
      planView.upper.state === 'ready' ? 200 : 409,
    );
    await call('DELETE', '/api/case/{caseId}/plans/{planId}/shares/{shareId}', {
      params: { path: { ...v1Path.path, shareId: share.shareId } },
    });
    await call('POST', '/api/case/{caseId}/plans/{planId}/request_changes', {
      params: v1Path,
      body: { comment: 'Less expansion' },
    });
    token = staffToken;
    expect(
      json<unknown[]>(await call('GET', '/api/case/{caseId}/plans/{planId}/comments', { params: v1Path })),
    ).toHaveLength(1);
    await call('POST', '/api/case/{caseId}/plans/{planId}/comments/{commentId}/resolve', {
      params: { path: { ...v1Path.path, commentId: comments[0]!.commentId } },
    });
    await call('POST', '/api/case/{caseId}/plans/{planId}/comments/{commentId}/replies', {
      params: { path: { ...v1Path.path, commentId: comments[0]!.commentId } },
      body: { text: 'Answered in version 2' },
    });
    const v2 = json<{ planId: number }>(
      await call('POST', '/api/case/{caseId}/plans', { ...planCase, body: planBody(), ...multipart }),
    );
    token = json<{ token: string }>(
      await call('POST', '/api/auth/login', {
        body: { username: registration.username, password: registration.password },
      }),
    ).token;
    // The approval waits for the check against the prescription (the movements measured).
    await t.app.jobs.runDue();
    await call('POST', '/api/case/{caseId}/plans/{planId}/approve', {
      params: { path: { caseId: CaseId, planId: v2.planId } },
      body: { reviewedIn3d: true, findingsAcknowledged: true },
    });
    token = staffToken;
    // A progress scan the lab sends on the doctor's behalf: accepted, listed, read (progress-scans.test.ts fits one).
    const progress = json<{ progressScanId: number }>(
      await call(
        'POST',
        '/api/case/{caseId}/progress-scans',
        {
          ...planCase,
          body: { stage: '1', upper: file(stageFiles(1, 0)[1]!.data, 'upper.stl', 'application/octet-stream') },
          ...multipart,
        },
        202,
      ),
    );
    await call('GET', '/api/case/{caseId}/progress-scans', planCase);
    await call('GET', '/api/case/{caseId}/progress-scans/{progressScanId}', {
      params: { path: { caseId: CaseId, progressScanId: progress.progressScanId } },
    });
    // Still queued here: its viewing copy is made when the fit ends.
    await call(
      'GET',
      '/api/case/{caseId}/progress-scans/{progressScanId}/view/{arch}',
      {
        params: { path: { caseId: CaseId, progressScanId: progress.progressScanId, arch: 'upper' } },
        parseAs: 'arrayBuffer',
      },
      409,
    );
    // The event stream, opened before the change it then carries; read up to that event and closed.
    const events = await call('GET', '/api/events', { parseAs: 'stream' });
    expect(events.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await call('PUT', '/api/case/status/{caseId}', {
      params: { path: { caseId: CaseId } },
      body: { status: 'dispatched', courier: 'DHL', trackingNumber: 'JD0146', note: 'Packed with care' },
    });
    const reader = (events.data as ReadableStream<Uint8Array>).getReader();
    let received = '';
    while (!received.includes('event: case.status')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(received).toContain(`event: case.status\ndata: {"caseId":${CaseId},"status":"dispatched","at":"`);
    const turnaround = await call('GET', '/api/case/turnaround', {});
    expect(turnaround.data).toEqual({ targets: { new: 2, inprogress: 10, dispatched: 7 } });
    const doctorOptions = await call('GET', '/api/case/doctor-options', { params: { query: { search: '' } } });
    expect((doctorOptions.data as unknown[]).length).toBeGreaterThan(0);
    const assignees = await call('GET', '/api/case/assignees', {});
    const [first] = assignees.data as { userId: number; name: string; userName: string }[];
    const technician = { userId: first!.userId, name: first!.name };
    const assigned = await call('PUT', '/api/case/{caseId}/assignee', {
      params: { path: { caseId: CaseId } },
      body: { userId: technician!.userId },
    });
    expect(assigned.data).toMatchObject({ assignee: technician });
    await call('POST', '/api/case/{caseId}/notes', { params: { path: { caseId: CaseId } }, body: { text: 'Checked' } });
    const notes = await call('GET', '/api/case/{caseId}/notes', { params: { path: { caseId: CaseId } } });
    expect(notes.data).toMatchObject([{ text: 'Checked' }]);
    const zip = await call('GET', '/api/case/{caseId}/files.zip', {
      params: { path: { caseId: CaseId } },
      parseAs: 'arrayBuffer',
    });
    expect(Buffer.from(zip.data as ArrayBuffer).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    await call('GET', '/api/case/get_case_history/{caseId}', { params: { path: { caseId: CaseId } } });
    const timeline = await call('GET', '/api/case/{caseId}/timeline', { params: { path: { caseId: CaseId } } });
    expect((timeline.data as { kind: string }[]).filter((entry) => entry.kind !== 'assignment').at(-1)).toMatchObject({
      kind: 'status',
      to: 'dispatched',
      courier: 'DHL',
    });
    const prescription = await call('GET', '/api/case/{caseId}/prescription.pdf', {
      params: { path: { caseId: CaseId } },
      parseAs: 'arrayBuffer',
    });
    expect(prescription.response.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(prescription.data as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // The doctor's own case defaults, with the doctor's token.
    token = json<{ token: string }>(
      await call('POST', '/api/auth/login', {
        body: { username: registration.username, password: registration.password },
      }),
    ).token;
    await call('PUT', '/api/doctor/preferences', { body: { midline: 'Maintain', toothNumbering: 'FDI' } });
    const preferences = await call('GET', '/api/doctor/preferences', {});
    expect(preferences.data).toEqual({ midline: 'Maintain', toothNumbering: 'FDI' });
    // The doctor's e-mail preferences and inbox.
    await call('PUT', '/api/account/mail-preferences', {
      body: { messages: 'digest', plans: 'immediate', status: 'off' },
    });
    const mailPreferences = await call('GET', '/api/account/mail-preferences', {});
    expect(mailPreferences.data).toMatchObject({ messages: 'digest', plans: 'immediate', status: 'off' });
    expect(json<{ items: unknown[] }>(await call('GET', '/api/inbox', {})).items).toEqual([]);

    // The doctor's assistants: invite one, list, revoke (docs/decisions/assistants.md § Assistants).
    await call('POST', '/api/doctor/assistants', {
      body: { email: `${registration.username}-helper@example.com`, firstName: 'Hel', lastName: 'Per' },
    });
    const [helper] = json<{ userId: number; firstName: string }[]>(await call('GET', '/api/doctor/assistants', {}));
    expect(helper!.firstName).toBe('Hel');
    // The assistant sets a password from the mailed link and reads whom they work for.
    const ownToken = token;
    const helperEmail = `${registration.username}-helper@example.com`;
    const resetToken = await latestResetTokenTo(t, helperEmail);
    await call('POST', '/api/doctor/reset_password', { body: { token: resetToken, newPassword: 'helper-passphrase' } });
    token = json<{ token: string }>(
      await call('POST', '/api/auth/login', { body: { username: helperEmail, password: 'helper-passphrase' } }),
    ).token;
    const served = json<{ userId: number }[]>(await call('GET', '/api/assistant/doctors', {}));
    expect(served).toHaveLength(1);
    token = ownToken;
    await call('DELETE', '/api/doctor/assistants/{assistantUserId}', {
      params: { path: { assistantUserId: helper!.userId } },
    });

    // The doctor's case drafts: start, save, list, read back, delete.
    const { draftId } = json<{ draftId: number }>(
      await call('POST', '/api/case/drafts', { body: { fields: { firstname: 'Dana' }, step: 0 } }),
    );
    const draftParams = { params: { path: { draftId } } };
    await call('PUT', '/api/case/drafts/{draftId}', {
      ...draftParams,
      body: { fields: { firstname: 'Dana', lastname: 'Draft' }, files: { maxillaryScan: 'upload-1' }, step: 1 },
    });
    const drafts = json<{ draftId: number; patientName: string }[]>(await call('GET', '/api/case/drafts', {}));
    expect(drafts.map((draft) => [draft.draftId, draft.patientName])).toEqual([[draftId, 'Dana Draft']]);
    const draft = await call('GET', '/api/case/drafts/{draftId}', draftParams);
    // 'upload-1' is no upload of the doctor's: the draft drops it (docs/decisions/case-form.md § Drafts).
    expect(draft.data).toMatchObject({ fields: { lastname: 'Draft' }, files: {}, uploads: [], step: 1 });
    await call('DELETE', '/api/case/drafts/{draftId}', draftParams);

    // The doctor's second factor: an authenticator app (codes computed here), recovery codes,
    // the second step of a sign-in, passkey options and refusals (passkey ceremonies: the browser test).
    const now = () => Math.floor(Date.now() / 1000);
    await call('GET', '/api/account/second-factor', {});
    // A change of a factor needs a fresh proof: the password here (a passkey's options too).
    await call('POST', '/api/account/reauthenticate/passkey/options', {});
    await call('POST', '/api/account/reauthenticate', { body: { password: registration.password } });
    const { secret } = json<{ secret: string }>(await call('POST', '/api/account/second-factor/totp', {}));
    await call('POST', '/api/account/second-factor/totp/confirm', {
      body: { code: await generate({ secret, epoch: now() }) },
    });
    const { recoveryCodes } = json<{ recoveryCodes: string[] }>(
      await call('POST', '/api/account/second-factor/recovery-codes', {}),
    );
    await call('POST', '/api/account/second-factor/passkey/options', {});
    await call('POST', '/api/account/second-factor/passkey', { body: { credential: madeUpCredential } }, 400);
    await call('DELETE', '/api/account/second-factor/passkey/{id}', { params: { path: { id: 999_999 } } }, 404);
    const doctorToken = token;
    token = undefined;
    const passwordStep = async () =>
      json<{ interimToken: string }>(
        await call('POST', '/api/auth/login', {
          body: { username: registration.username, password: registration.password },
        }),
      ).interimToken;
    await call('POST', '/api/auth/second-factor/totp', {
      body: { interimToken: await passwordStep(), code: await generate({ secret, epoch: now() + 30 }) },
    });
    await call('POST', '/api/auth/second-factor/recovery', {
      body: { interimToken: await passwordStep(), code: recoveryCodes[0] },
    });
    const interimToken = await passwordStep();
    await call('POST', '/api/auth/second-factor/passkey/options', { body: { interimToken } });
    await call(
      'POST',
      '/api/auth/second-factor/passkey',
      { body: { interimToken, credential: madeUpCredential } },
      401,
    );
    await call('POST', '/api/auth/passkey/options', {});
    await call('POST', '/api/auth/passkey', { body: { credential: madeUpCredential } }, 401);
    token = doctorToken;
    await call('DELETE', '/api/account/second-factor/totp', {});
    token = staffToken;

    // The case's conversation: a message with files, the list, unread counts, the read mark, a
    // file, and its scan's viewing copy.
    const caseParams = { params: { path: { caseId: CaseId } } };
    const note = file(await makeImage('png', 30), 'note.png', 'image/png');
    const message = json<{ side: string; attachments: { url: string }[] }>(
      await call('POST', '/api/case/{caseId}/messages', {
        ...caseParams,
        body: { text: 'Stage 3 is ready', files: [note, file(binaryStl(20), 'stage 3.stl', 'model/stl')] },
        ...multipart,
      }),
    );
    expect(message.side).toBe('lab');
    const messages = json<{ text: string }[]>(await call('GET', '/api/case/{caseId}/messages', caseParams));
    expect(messages.map((entry) => entry.text)).toEqual(['Stage 3 is ready']);
    await call('GET', '/api/case/unread', {});
    await call('POST', '/api/case/{caseId}/messages/read', caseParams);
    const [, fileId, noteName] = /^\/api\/case\/message_files\/(\d+)\/(.+)$/.exec(message.attachments[0]!.url)!;
    const noteFile = await call('GET', '/api/case/message_files/{fileId}/{fileName}', {
      params: { path: { fileId: Number(fileId), fileName: noteName } },
      parseAs: 'blob',
    });
    expect((noteFile.data as Blob).size).toBe(note.size);
    await t.app.jobs.runDue();
    const messageScan = { params: { path: { fileId: Number(message.attachments[1]!.url.split('/').at(-2)) } } };
    const messageView = await call('GET', '/api/case/message-file-views/{fileId}', messageScan);
    expect(messageView.data).toMatchObject({ state: 'ready', triangles: 20 });
    await call('GET', '/api/case/message-file-views/{fileId}/mesh.glb', { ...messageScan, parseAs: 'arrayBuffer' });

    const audit = await call('GET', '/api/audit', { params: { query: { page: 1, pageSize: 5 } } });
    // The lab's settings (docs/decisions/settings.md), read and saved as they are.
    const settings = await call('GET', '/api/settings', {});
    expect(settings.data).toEqual(defaultLabSettings);
    await call('PUT', '/api/settings', { body: defaultLabSettings });
    expect((await call('GET', '/api/settings/couriers', {})).data).toEqual({ couriers: defaultLabSettings.couriers });
    await call('PUT', '/api/account/time-zone', { body: { timeZone: 'Europe/Berlin' } });
    expect((await call('GET', '/api/account/time-zone', {})).data).toEqual({
      timeZone: 'Europe/Berlin',
      labTimeZone: 'UTC',
    });
    expect((await call('PUT', '/api/account/locale', { body: { locale: 'pt-BR' } })).data).toEqual({ locale: 'pt-BR' });
    expect((await call('GET', '/api/account/locale', {})).data).toEqual({ locale: 'pt-BR' });
    expect((await call('GET', '/api/account/tooth-notation', {})).data).toEqual({ toothNotation: 'FDI' });
    expect((await call('PUT', '/api/account/tooth-notation', { body: { toothNotation: 'Palmer' } })).data).toEqual({
      toothNotation: 'Palmer',
    });
    expect((await call('GET', '/api/account/tooth-notation', {})).data).toEqual({ toothNotation: 'Palmer' });
    expect(Number(audit.response.headers.get('x-total-count'))).toBeGreaterThan(5);

    // Signed-in devices: another sign-in of the administrator's, listed and ended, then the others; a Web user's.
    const otherDevice = (await t.app.tokens.verify(await t.login(testAdmin.username, testAdmin.password)))!.jti;
    const devices = json<{ sessionId: string }[]>(await call('GET', '/api/auth/sessions', {}));
    expect(devices.map((device) => device.sessionId)).toContain(otherDevice);
    await call('DELETE', '/api/auth/sessions/{sessionId}', { params: { path: { sessionId: otherDevice } } });
    await call('POST', '/api/auth/sessions/end_others', {});
    await call('GET', '/api/user/{id}/sessions', { params: { path: { id: UserId } } });
    await call('DELETE', '/api/user/{id}/sessions', { params: { path: { id: UserId } } });
    await call('POST', '/api/user/{id}/second-factor/reset', { params: { path: { id: UserId } } });

    await call('DELETE', '/api/doctor/delete/{id}', { params: { path: { id: DoctorId } } });
    await call('DELETE', '/api/user/delete/{id}', { params: { path: { id: UserId } } });
    await call('PUT', '/api/role/second-factor/{id}', {
      params: { path: { id: spareRoleId } },
      body: { required: true },
    });
    await call('DELETE', '/api/role/delete/{id}', { params: { path: { id: spareRoleId } } });
    await call('POST', '/api/auth/logout', {});

    expect([...called].sort()).toEqual([...operationIds.values()].sort());
  });
});
