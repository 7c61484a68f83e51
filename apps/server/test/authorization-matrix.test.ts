import { endpoints, pages, recordKinds, type Endpoint, type PageUrl, defaultLabSettings } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryStl, caseFields, caseForm, createCaseDoctor, submitCase } from './helpers/case-factories.ts';
import {
  createAssistant,
  createDoctor,
  createStaff,
  doctorEditFields,
  doctorFields,
  firstCityOf,
  formData,
  makeImage,
  uniqueName,
} from './helpers/factories.ts';
import { progressScans } from '../src/db/schema.ts';
import { startSession } from '../src/services/sessions.ts';
import { approvedPlan, planForm, planSummaryOf, stageFiles, uploadPlan } from './helpers/plan-factories.ts';
import { createTestApp, testAdmin, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/access.md, Authorization matrix: every route the server registers x nine actors. What each actor
 * should get follows from the route's row in the endpoint table, its `access` and its
 * `record` (expectedOf); the few routes whose answer the row cannot tell are listed with why
 * (OVERRIDES), and the routes without a row (UNLISTED). A registered route without an entry
 * or a request builder fails the test, so a new route can't slip in.
 */

const actors = [
  'anonymous',
  'inactiveDoctor',
  'doctorA',
  'doctorB',
  'staffWithoutPage',
  'staffWithPage',
  'admin',
  // Every page but the route's own (all of them when several open it): an unrelated page
  // added to a route's access list lets this one in. Expected to fare as staffWithoutPage.
  'staffWithOtherPages',
  // Doctor A's assistant (docs/decisions/assistants.md § Assistants): doctor B's records are a third doctor's to them.
  'assistant',
] as const;
type Actor = (typeof actors)[number];
type PageName = (typeof pages)[number]['PageName'];

/**
 * What one actor should get: a status, one of several statuses, 'ok' (any 2xx or 3xx), or
 * 'own' (2xx, answered with the caller's own data: the same answer as for their own ids).
 */
type Outcome = number | readonly number[] | 'ok' | 'own';
/** Anonymous, inactive doctor, doctor A, doctor B, staff without the page, with it, administrator, A's assistant. */
type Row = readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];
/** `page`: the one page the "staff with the page" actor's role has (the first of the route's pages). */
interface Entry {
  page?: PageName;
  expect: Row;
}

const everyone = (outcome: Outcome): Row => [outcome, outcome, outcome, outcome, outcome, outcome, outcome, outcome];
/** Any signed-in user, each for themselves. */
const SIGNED_IN = (outcome: Outcome): Row => [401, 401, outcome, outcome, outcome, outcome, outcome, outcome];

const pageNameOf = (url: PageUrl) => pages.find((row) => row.PageUrl === url)!.PageName;

/**
 * What each actor gets from a row, its params naming doctor A's records (doctor B thus asks
 * for another doctor's): who the access lets in (plugins/auth.ts, auth/policy.ts isAllowed),
 * then who the record's reach lets at doctor A's record (contract recordKinds, routes/records.ts).
 */
function expectedOf(row: Endpoint): Entry {
  const success: Outcome = row.otherAnswers?.[202] ? 'ok' : 200;
  const { access } = row;
  if (access === 'public') return { expect: everyone(success) };
  const reach = row.record ? recordKinds[row.record].reach : undefined;
  const rolePages = typeof access === 'object' ? access.pages : [];
  const isLetIn = {
    doctor: access === 'signedIn' || (typeof access === 'object' && access.doctors === true),
    assistant: access === 'signedIn' || (typeof access === 'object' && access.assistants === true),
    staffWithoutPage: access === 'signedIn',
    staffWithPage: access === 'signedIn' || rolePages.length > 0,
    admin: access === 'signedIn' || access === 'administrator' || rolePages.length > 0,
  };
  /**
   * A caller let in, at doctor A's record: its owner, another doctor, staff, or A's assistant
   * (who reaches A's records as A does, but takes none of A's decisions and owns none of A's own).
   */
  const atRecord = (caller: 'owner' | 'otherDoctor' | 'staff' | 'assistant', hasPage: boolean): Outcome => {
    switch (reach) {
      case undefined:
        return success;
      case 'ownIfDoctor':
        return caller === 'otherDoctor' ? 404 : success;
      case 'ownScope':
        return caller === 'otherDoctor' ? 'own' : success;
      case 'caseDoctor':
        return caller === 'owner' ? success : caller === 'otherDoctor' ? 404 : 403;
      case 'self':
        return caller === 'owner' ? success : 404;
      case 'staffOnly':
        return caller === 'staff' ? success : 404;
      case 'ownRole':
        // A role nobody here has as their own Web role (the doctors'): the page alone opens it.
        return hasPage ? success : 403;
    }
  };
  const page = rolePages[0] ?? (reach === 'ownRole' ? '/rolepermissions' : undefined);
  return {
    ...(page && { page: pageNameOf(page) }),
    expect: [
      401,
      401,
      isLetIn.doctor ? atRecord('owner', false) : 403,
      isLetIn.doctor ? atRecord('otherDoctor', false) : 403,
      isLetIn.staffWithoutPage ? atRecord('staff', false) : 403,
      isLetIn.staffWithPage ? atRecord('staff', true) : 403,
      isLetIn.admin ? atRecord('staff', true) : 403,
      isLetIn.assistant ? atRecord('assistant', false) : 403,
    ],
  };
}

/** Routes whose answers their row cannot tell: the request makes them refuse, or succeed otherwise. */
const OVERRIDES: Record<string, Entry> = {
  'POST /api/doctor/reset_password': { expect: everyone(400) }, // an unknown token, for everyone alike
  // Doctor B submitting with doctor A's clinic is refused (the case would be B's, the clinic is A's).
  'POST /api/case/add': { page: 'Add Case', expect: [401, 401, 200, [400, 403, 404], 403, 200, 200, 200] },
  // The second step of a sign-in: public, the interim token in the body decides (a made-up one here).
  'POST /api/auth/second-factor/totp': { expect: everyone(401) },
  'POST /api/auth/second-factor/recovery': { expect: everyone(401) },
  'POST /api/auth/second-factor/passkey/options': { expect: everyone(401) },
  'POST /api/auth/second-factor/passkey': { expect: everyone(401) },
  'POST /api/auth/passkey': { expect: everyone(401) },
  // Each signed-in user's own factors (second-factor.test.ts enrols them; nothing is enrolled
  // here, so later sign-ins stay one-step): a change needs a fresh proof, which no session
  // here has given (second-factor-changes.test.ts gives one).
  'POST /api/account/second-factor/totp': { expect: SIGNED_IN(403) },
  'POST /api/account/second-factor/totp/confirm': { expect: SIGNED_IN(403) },
  'DELETE /api/account/second-factor/totp': { expect: SIGNED_IN(403) },
  'POST /api/account/second-factor/recovery-codes': { expect: SIGNED_IN(403) },
  'POST /api/account/second-factor/passkey/options': { expect: SIGNED_IN(403) },
  'POST /api/account/second-factor/passkey': { expect: SIGNED_IN(403) },
  // A code from an app nobody here has set up: refused, for each their own account.
  'POST /api/account/reauthenticate': { expect: SIGNED_IN(403) },
  'DELETE /api/account/second-factor/passkey/:id': { expect: SIGNED_IN(404) },
  // Which roles need a second factor: the administrator alone, not even Roles-page staff.
  'PUT /api/role/second-factor/:id': { page: 'Roles', expect: [401, 401, 403, 403, 403, 403, 200, 403] },
};

/** Routes without a row in the endpoint table. */
const UNLISTED: Record<string, Entry> = {
  'GET /api/docs': { expect: everyone('ok') },
  'GET /api/docs/json': { expect: everyone('ok') },
  'GET /api/docs/yaml': { expect: everyone('ok') },
  'GET /api/docs/static/index.html': { expect: everyone('ok') },
  'GET /api/docs/static/swagger-initializer.js': { expect: everyone('ok') },
  'GET /api/docs/static/*': { expect: everyone('ok') },
  // tus (docs/decisions/uploads.md § Resumable uploads): whoever may add a case may upload; an upload
  // is its creator's alone, 404 to anyone else, staff and administrator included.
  'OPTIONS /api/uploads/tus': { expect: everyone('ok') }, // tus discovery (204), the same for anyone
  'POST /api/uploads/tus': { page: 'Add Case', expect: [401, 401, 'ok', 'ok', 403, 'ok', 'ok', 'ok'] },
  'HEAD /api/uploads/tus/:uploadId': { page: 'Add Case', expect: [401, 401, 200, 404, 403, 404, 404, 404] },
  'PATCH /api/uploads/tus/:uploadId': { page: 'Add Case', expect: [401, 401, 'ok', 404, 403, 404, 404, 404] },
  'DELETE /api/uploads/tus/:uploadId': { page: 'Add Case', expect: [401, 401, 'ok', 404, 403, 404, 404, 404] },
};

const tableRows = Object.values(endpoints) as Endpoint[];
const keyOf = (row: Endpoint) => `${row.method} ${row.path}`;
const EXPECTED: Record<string, Entry> = {
  ...Object.fromEntries(tableRows.map((row) => [keyOf(row), expectedOf(row)])),
  ...OVERRIDES,
  ...UNLISTED,
};

/** Registered before the auth plugin, so not in `app.apiRoutes`: checked to exist with hasRoute. */
const docsRoutes = Object.keys(EXPECTED).filter((key) => key.startsWith('GET /api/docs'));

/** Doctor A's records, the params every route is called with (`own` re-asks with doctor B's). */
interface Owner {
  userId: number;
  doctorId: number;
  clinicId: number;
  caseId: number;
  filePath: string;
  /** The case's first STL: its viewing copy's routes. */
  scanPath: string;
  picturePath: string;
  messageFilePath: string;
  /** The message's STL: its viewing copy's routes. */
  messageScanPath: string;
  planFilePath: string;
  /** A plan version's viewer copies (its case's, so another doctor asks for a case not theirs). */
  planViewPath: string;
  /** A stage of a plan whose stages are not the same teeth moved: its own viewing copy. */
  planFileViewPath: string;
  /** A patient link to a plan of A's whose viewing copy is made (the link's own API path). */
  sharedPath: string;
}

/**
 * A request; `token` (even null) replaces the actor's usual token; `asHead` sends HEAD
 * instead of the route's GET (same access check, no body: an event stream stays open).
 */
type Request = Omit<InjectOptions, 'method'> & { url: string; token?: string | null; asHead?: boolean };
type Build = (actor: Actor, owner: Owner) => Promise<Request> | Request;

let t: TestApp;
let admin: string;
let ownerA: Owner;
let ownerB: Owner;
const tokens = new Map<string, string | null>();
const staffOfPage = new Map<PageName, string>();
/** Who signed in with a token, to sign in again. */
const accounts = new Map<string, { username: string; password: string }>();
let pagelessRoleId: number;
let cityId: number;

/** The pages that open a route: its declared pages, and the matrix's page for it. */
function routePages(key: string, page: PageName | undefined): PageUrl[] {
  const endpoint = Object.values(endpoints).find((row) => `${row.method} ${row.path}` === key);
  const declared = endpoint && typeof endpoint.access === 'object' ? endpoint.access.pages : [];
  const named = pages.filter((row) => row.PageName === page).map((row) => row.PageUrl);
  return [...new Set([...declared, ...named])];
}

const staffOfOtherPages = new Map<string, string>();

async function tokenOf(actor: Actor, page: PageName, routeKey = ''): Promise<string | null> {
  if (actor === 'staffWithOtherPages') {
    const excluded = routePages(routeKey, page);
    const cacheKey = excluded.toSorted().join(',');
    if (!staffOfOtherPages.has(cacheKey)) {
      const others = pages.filter((row) => !excluded.includes(row.PageUrl)).map((row) => row.PageId);
      const staff = await createStaff(t, others);
      accounts.set(staff.token, { username: staff.username, password: 'staff-passphrase' });
      staffOfOtherPages.set(cacheKey, staff.token);
    }
    return staffOfOtherPages.get(cacheKey)!;
  }
  if (actor !== 'staffWithPage') return tokens.get(actor)!;
  if (!staffOfPage.has(page)) {
    const pageId = pages.find((row) => row.PageName === page)!.PageId;
    const staff = await createStaff(t, [pageId]);
    accounts.set(staff.token, { username: staff.username, password: 'staff-passphrase' });
    staffOfPage.set(page, staff.token);
  }
  return staffOfPage.get(page)!;
}

/** A fresh token for the actor (logout revokes the one it is called with). */
async function freshToken(actor: Actor): Promise<string | null> {
  const current = await tokenOf(actor, 'Dashboard');
  const account = current ? accounts.get(current) : undefined;
  return account ? t.login(account.username, account.password) : current;
}

// Throwaway records, made by the administrator for one request each.
const asAdmin = (options: InjectOptions) => t.as(admin, options);
const json = <T>(response: LightMyRequestResponse) => {
  if (response.statusCode !== 200) throw new Error(`setup failed: ${response.statusCode} ${response.body}`);
  return response.json<T>();
};

async function newRole(): Promise<number> {
  const response = await asAdmin({
    method: 'POST',
    url: '/api/role/add',
    payload: { roleName: uniqueName('role'), description: 'matrix' },
  });
  return json<{ RoleId: number }>(response).RoleId;
}

async function newRoleWithDashboard(): Promise<number> {
  const roleId = await newRole();
  json(await asAdmin({ method: 'POST', url: `/api/permission/add/${roleId}/1` }));
  return roleId;
}

function webUserForm(fields: Record<string, string | number> = {}) {
  const username = uniqueName('web');
  return formData({
    username,
    firstname: 'Wen',
    lastname: 'User',
    password: 'web-passphrase-1',
    email: `${username}@lab.test`,
    mobileNo: '5550102',
    roleId: pagelessRoleId,
    ...fields,
  });
}

async function newWebUser(): Promise<number> {
  const response = await asAdmin({ method: 'POST', url: '/api/user/add', payload: webUserForm() });
  return json<{ UserId: number }>(response).UserId;
}

/** A self-registration form with a real city. */
const registration = () =>
  doctorFields({
    clinicList: JSON.stringify([
      { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
    ]),
  });

const newDoctor = async () => (await createDoctor(t)).doctorId;

async function caseFormFor(actor: Actor, owner: Owner) {
  const isDoctor = actor === 'doctorA' || actor === 'doctorB' || actor === 'inactiveDoctor';
  const fields = caseFields(owner.clinicId, isDoctor ? {} : { userId: owner.userId });
  return caseForm(fields, {
    front: { data: await makeImage(), name: 'front.png', type: 'image/png' },
    maxillaryScan: { data: binaryStl(2), name: 'upper.stl', type: 'model/stl' },
  });
}

async function newCaseOfA(): Promise<number> {
  const response = await submitCase(t, tokens.get('doctorA')!, await caseFormFor('doctorA', ownerA));
  return json<{ CaseId: number }>(response).CaseId;
}

/** A plan version awaiting doctor A's decision, on a new case of A unless one is given. */
async function newPlanOfA(caseId?: number): Promise<{ caseId: number; planId: number; stageUrl: string }> {
  const id = caseId ?? (await newCaseOfA());
  const { planId } = json<{ planId: number }>(
    await uploadPlan(t, admin, id, planForm(planSummaryOf(1, 0), stageFiles(1, 0))),
  );
  const plans = json<{ stages: { url: string }[] }[]>(await asAdmin({ method: 'GET', url: `/api/case/${id}/plans` }));
  return { caseId: id, planId, stageUrl: plans[0]!.stages[0]!.url };
}

/** A progress scan's form: the stage worn and an upper STL. */
function progressScanForm(): FormData {
  const form = new FormData();
  form.append('stage', '1');
  form.append('upper', new Blob([new Uint8Array(binaryStl(2))]), 'upper.stl');
  return form;
}

let progressCase: Promise<{ caseId: number; progressScanId: number }> | undefined;
/** A case of doctor A with an approved plan and one progress scan (made once). */
function progressCaseOfA() {
  progressCase ??= (async () => {
    const caseId = await newCaseOfA();
    await approvedPlan(t, admin, tokens.get('doctorA')!, caseId);
    const sent = await t.as(tokens.get('doctorA')!, {
      method: 'POST',
      url: `/api/case/${caseId}/progress-scans`,
      payload: progressScanForm(),
    });
    if (sent.statusCode !== 202) throw new Error(`setup failed: ${sent.statusCode} ${sent.body}`);
    return { caseId, progressScanId: sent.json<{ progressScanId: number }>().progressScanId };
  })();
  return progressCase;
}

let progressView: Promise<{ caseId: number; progressScanId: number }> | undefined;
/**
 * Doctor A's progress scan of its own, recorded done with a viewing copy: access is what is
 * checked here (progress-scans.test.ts fits a real scan and reads its copy).
 */
function progressViewOfA() {
  progressView ??= (async () => {
    const caseId = await newCaseOfA();
    await approvedPlan(t, admin, tokens.get('doctorA')!, caseId);
    const sent = await t.as(tokens.get('doctorA')!, {
      method: 'POST',
      url: `/api/case/${caseId}/progress-scans`,
      payload: progressScanForm(),
    });
    if (sent.statusCode !== 202) throw new Error(`setup failed: ${sent.statusCode} ${sent.body}`);
    const progressScanId = sent.json<{ progressScanId: number }>().progressScanId;
    const viewKey = `progress/matrix/${progressScanId}.view.glb`;
    const glb = Buffer.from('glTF');
    await t.app.storage.put(viewKey, glb, 'model/gltf-binary');
    await t.app.db
      .update(progressScans)
      .set({ state: 'done', arches: [], upperViewKey: viewKey, upperViewBytes: glb.byteLength })
      .where(eq(progressScans.progressScanId, progressScanId));
    return { caseId, progressScanId };
  })();
  return progressView;
}

/** A comment doctor A pinned to a new plan of theirs: left a draft, or sent with a change request. */
async function newCommentOfA(sent: boolean): Promise<{ caseId: number; planId: number; commentId: number }> {
  const plan = await newPlanOfA();
  const asDoctorA = (url: string, payload: object) =>
    t.as(tokens.get('doctorA')!, {
      method: 'POST',
      url: `/api/case/${plan.caseId}/plans/${plan.planId}${url}`,
      payload,
    });
  const { commentId } = json<{ commentId: number }>(
    await asDoctorA('/comments', { stage: 1, arch: 'upper', point: [0, 0, 0], text: 'Less here' }),
  );
  if (sent) json(await asDoctorA('/request_changes', { comment: 'See the pin' }));
  return { ...plan, commentId };
}

/** A patient link doctor A made to a new plan of theirs. */
async function newShareOfA(): Promise<{ caseId: number; planId: number; shareId: number; url: string }> {
  const plan = await newPlanOfA();
  const created = json<{ shareId: number; url: string }>(
    await t.as(tokens.get('doctorA')!, {
      method: 'POST',
      url: `/api/case/${plan.caseId}/plans/${plan.planId}/shares`,
      payload: { days: 3 },
    }),
  );
  return { ...plan, ...created };
}

async function newDraftOfA(): Promise<number> {
  const response = await t.as(tokens.get('doctorA')!, {
    method: 'POST',
    url: '/api/case/drafts',
    payload: { fields: { firstname: 'Draft' } },
  });
  return json<{ draftId: number }>(response).draftId;
}

/** An interim token no sign-in issued, and a WebAuthn answer no authenticator made. */
const madeUpInterim = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const madeUpCredential = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
};

/** How each route is called: one builder per table entry. */
const requests: Record<string, Build> = {
  'GET /api/health': () => ({ url: '/api/health' }),
  'GET /api/ready': () => ({ url: '/api/ready' }),
  'POST /api/auth/login': () => ({ url: '/api/auth/login', payload: testAdmin }),
  // A name of its own per actor: one name is answered three times an hour.
  'POST /api/auth/forgot_password': () => ({
    url: '/api/auth/forgot_password',
    payload: { username: uniqueName('forgetful') },
  }),
  'GET /api/country/get_countries_list': () => ({ url: '/api/country/get_countries_list' }),
  'GET /api/city/get_cities_list/:id': () => ({ url: '/api/city/get_cities_list/1' }),
  'POST /api/doctor/add': () => ({ url: '/api/doctor/add', payload: formData(registration()) }),
  'GET /api/doctor/verify_token/:token': () => ({ url: `/api/doctor/verify_token/${'a'.repeat(43)}` }),
  'POST /api/doctor/reset_password': () => ({
    url: '/api/doctor/reset_password',
    payload: { token: 'b'.repeat(43), newPassword: 'new-secret-pass' },
  }),
  'GET /api/docs': () => ({ url: '/api/docs' }),
  'GET /api/docs/json': () => ({ url: '/api/docs/json' }),
  'GET /api/docs/yaml': () => ({ url: '/api/docs/yaml' }),
  'GET /api/docs/static/index.html': () => ({ url: '/api/docs/static/index.html' }),
  'GET /api/docs/static/swagger-initializer.js': () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  'GET /api/docs/static/*': () => ({ url: '/api/docs/static/swagger-ui.css' }),

  'POST /api/auth/logout': async (actor) => ({ url: '/api/auth/logout', token: await freshToken(actor) }),
  'GET /api/auth/sessions': () => ({ url: '/api/auth/sessions' }),
  // Doctor A signed in on another device: that session's id.
  'DELETE /api/auth/sessions/:sessionId': async () => {
    const otherDevice = await t.login(doctorA.username, doctorA.password);
    return { url: `/api/auth/sessions/${(await t.app.tokens.verify(otherDevice))!.jti}` };
  },
  // With the actor's usual token, which it keeps.
  'POST /api/auth/sessions/end_others': () => ({ url: '/api/auth/sessions/end_others' }),
  'GET /api/user/:id/sessions': async () => ({ url: `/api/user/${await newWebUser()}/sessions` }),
  'DELETE /api/user/:id/sessions': async () => ({ url: `/api/user/${await newWebUser()}/sessions` }),
  'GET /api/uploads/users/:userId/:fileName': (_actor, owner) => ({ url: owner.picturePath }),
  'GET /api/permission/get_menu/:roleId': () => ({ url: '/api/permission/get_menu/19' }),

  'GET /api/permission/get_role_permissions/:roleId': () => ({ url: '/api/permission/get_role_permissions/19' }),
  // Role Permissions (3): staff grant only pages they have (docs/decisions/access.md § Roles).
  'POST /api/permission/add/:roleId/:pageId': async () => ({ url: `/api/permission/add/${await newRole()}/3` }),
  'DELETE /api/permission/delete/:roleId/:pageId': async () => ({
    url: `/api/permission/delete/${await newRoleWithDashboard()}/1`,
  }),

  'GET /api/role/get_roles_list': () => ({ url: '/api/role/get_roles_list' }),
  'POST /api/role/add': () => ({ url: '/api/role/add', payload: { roleName: uniqueName('role'), description: 'x' } }),
  'PUT /api/role/edit/:id': async () => ({
    url: `/api/role/edit/${await newRole()}`,
    payload: { roleName: uniqueName('role'), description: 'edited' },
  }),
  'DELETE /api/role/delete/:id': async () => ({ url: `/api/role/delete/${await newRole()}` }),

  'GET /api/user/get_users_list': () => ({ url: '/api/user/get_users_list' }),
  'POST /api/user/add': () => ({ url: '/api/user/add', payload: webUserForm() }),
  'PUT /api/user/edit/:id': async () => ({
    url: `/api/user/edit/${await newWebUser()}`,
    payload: webUserForm({ password: '' }),
  }),
  'DELETE /api/user/delete/:id': async () => ({ url: `/api/user/delete/${await newWebUser()}` }),

  'GET /api/doctor/get_doctors_list': () => ({ url: '/api/doctor/get_doctors_list' }),
  'GET /api/doctor/get_doctor_detail_by_user_Id/:id': (_actor, owner) => ({
    url: `/api/doctor/get_doctor_detail_by_user_Id/${owner.userId}`,
  }),
  'PUT /api/doctor/edit/:id': async (_actor, owner) => ({
    url: `/api/doctor/edit/${owner.doctorId}`,
    payload: formData(await doctorEditFields(t, doctorA)),
  }),
  'DELETE /api/doctor/delete/:id': async () => ({ url: `/api/doctor/delete/${await newDoctor()}` }),
  'POST /api/doctor/activate/:id': async () => ({ url: `/api/doctor/activate/${await newDoctor()}` }),
  'POST /api/doctor/request_password_reset/:id': (_actor, owner) => ({
    url: `/api/doctor/request_password_reset/${owner.doctorId}`,
  }),
  'POST /api/email/send': () => ({
    url: '/api/email/send',
    payload: { to: doctorA.email, templateName: 'activation' },
  }),
  'GET /api/clinic/get_clinics_list/:id': (_actor, owner) => ({
    url: `/api/clinic/get_clinics_list/${owner.doctorId}`,
  }),
  'GET /api/clinic/get_clinics_list_by_user_id/:id': (_actor, owner) => ({
    url: `/api/clinic/get_clinics_list_by_user_id/${owner.userId}`,
  }),

  'POST /api/case/add': async (actor, owner) => ({ url: '/api/case/add', payload: await caseFormFor(actor, owner) }),
  'GET /api/case/get_all_stats/:userId': (_actor, owner) => ({ url: `/api/case/get_all_stats/${owner.userId}` }),
  'GET /api/case/get_cases_by_status/:status/:userId': (_actor, owner) => ({
    url: `/api/case/get_cases_by_status/all/${owner.userId}`,
  }),
  'GET /api/case/get_cases_attachments_by_case_id/:caseId': (_actor, owner) => ({
    url: `/api/case/get_cases_attachments_by_case_id/${owner.caseId}`,
  }),
  'GET /api/case/get_case_history/:caseId': (_actor, owner) => ({ url: `/api/case/get_case_history/${owner.caseId}` }),
  'GET /api/case/:caseId': (_actor, owner) => ({ url: `/api/case/${owner.caseId}` }),
  'GET /api/case/:caseId/timeline': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/timeline` }),
  'GET /api/case/assignees': () => ({ url: '/api/case/assignees' }),
  'GET /api/case/turnaround': () => ({ url: '/api/case/turnaround' }),
  'GET /api/case/doctor-options': () => ({ url: '/api/case/doctor-options?search=a' }),
  'PUT /api/case/:caseId/assignee': (_actor, owner) => ({
    url: `/api/case/${owner.caseId}/assignee`,
    payload: { userId: null },
  }),
  'GET /api/case/:caseId/notes': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/notes` }),
  'POST /api/case/:caseId/notes': (_actor, owner) => ({
    url: `/api/case/${owner.caseId}/notes`,
    payload: { text: 'Scan checked' },
  }),
  'GET /api/case/:caseId/files.zip': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/files.zip` }),
  'PUT /api/case/status/:caseId': async () => ({
    url: `/api/case/status/${await newCaseOfA()}`,
    payload: { status: 'inprogress' },
  }),
  'GET /api/case/files/:attachmentId/:fileName': (_actor, owner) => ({ url: owner.filePath }),
  'GET /api/case/file-thumbnails/:attachmentId': (_actor, owner) => ({
    url: `/api/case/file-thumbnails/${owner.filePath.split('/').at(-2)}`,
  }),
  'GET /api/case/file-views/:attachmentId': (_actor, owner) => ({
    url: `/api/case/file-views/${owner.scanPath.split('/').at(-2)}`,
  }),
  'GET /api/case/file-views/:attachmentId/mesh.glb': (_actor, owner) => ({
    url: `/api/case/file-views/${owner.scanPath.split('/').at(-2)}/mesh.glb`,
  }),
  'GET /api/audit': () => ({ url: '/api/audit?page=1&pageSize=5' }),
  // A GET would hold the stream open; HEAD runs the same access check. The GET itself is read on a real socket in events.test.ts.
  'GET /api/events': () => ({ url: '/api/events', asHead: true }),

  'GET /api/case/unread': () => ({ url: '/api/case/unread' }),
  'GET /api/case/:caseId/messages': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/messages` }),
  'POST /api/case/:caseId/messages': (_actor, owner) => ({
    url: `/api/case/${owner.caseId}/messages`,
    payload: caseForm({ text: 'A question about the case' }),
  }),
  'POST /api/case/:caseId/messages/read': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/messages/read` }),
  'GET /api/case/message_files/:fileId/:fileName': (_actor, owner) => ({ url: owner.messageFilePath }),
  'GET /api/case/message-file-views/:fileId': (_actor, owner) => ({
    url: `/api/case/message-file-views/${owner.messageScanPath.split('/').at(-2)}`,
  }),
  'GET /api/case/message-file-views/:fileId/mesh.glb': (_actor, owner) => ({
    url: `/api/case/message-file-views/${owner.messageScanPath.split('/').at(-2)}/mesh.glb`,
  }),
  'POST /api/case/:caseId/plans': (_actor, owner) => ({
    url: `/api/case/${owner.caseId}/plans`,
    payload: planForm(planSummaryOf(1, 0), stageFiles(1, 0)),
  }),
  'GET /api/case/:caseId/plans': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/plans` }),
  'POST /api/case/:caseId/progress-scans': async () => ({
    url: `/api/case/${(await progressCaseOfA()).caseId}/progress-scans`,
    payload: progressScanForm(),
  }),
  'GET /api/case/:caseId/progress-scans': async () => ({
    url: `/api/case/${(await progressCaseOfA()).caseId}/progress-scans`,
  }),
  'GET /api/case/:caseId/progress-scans/:progressScanId': async () => {
    const { caseId, progressScanId } = await progressCaseOfA();
    return { url: `/api/case/${caseId}/progress-scans/${progressScanId}` };
  },
  'GET /api/case/:caseId/progress-scans/:progressScanId/view/:arch': async () => {
    const { caseId, progressScanId } = await progressViewOfA();
    return { url: `/api/case/${caseId}/progress-scans/${progressScanId}/view/upper` };
  },
  'POST /api/auth/second-factor/totp': () => ({
    url: '/api/auth/second-factor/totp',
    payload: { interimToken: madeUpInterim, code: '123456' },
  }),
  'POST /api/auth/second-factor/recovery': () => ({
    url: '/api/auth/second-factor/recovery',
    payload: { interimToken: madeUpInterim, code: 'AAAA-BBBB-CCCC-DDDD' },
  }),
  'POST /api/auth/second-factor/passkey/options': () => ({
    url: '/api/auth/second-factor/passkey/options',
    payload: { interimToken: madeUpInterim },
  }),
  'POST /api/auth/second-factor/passkey': () => ({
    url: '/api/auth/second-factor/passkey',
    payload: { interimToken: madeUpInterim, credential: madeUpCredential },
  }),
  'POST /api/auth/passkey/options': () => ({ url: '/api/auth/passkey/options' }),
  'POST /api/auth/passkey': () => ({ url: '/api/auth/passkey', payload: { credential: madeUpCredential } }),
  'GET /api/account/second-factor': () => ({ url: '/api/account/second-factor' }),
  'POST /api/account/second-factor/totp': () => ({ url: '/api/account/second-factor/totp' }),
  'POST /api/account/second-factor/totp/confirm': () => ({
    url: '/api/account/second-factor/totp/confirm',
    payload: { code: '000000' },
  }),
  'DELETE /api/account/second-factor/totp': () => ({ url: '/api/account/second-factor/totp' }),
  'POST /api/account/second-factor/recovery-codes': () => ({ url: '/api/account/second-factor/recovery-codes' }),
  'POST /api/account/second-factor/passkey/options': () => ({ url: '/api/account/second-factor/passkey/options' }),
  'POST /api/account/second-factor/passkey': () => ({
    url: '/api/account/second-factor/passkey',
    payload: { credential: madeUpCredential },
  }),
  'DELETE /api/account/second-factor/passkey/:id': () => ({ url: '/api/account/second-factor/passkey/1' }),
  'POST /api/account/reauthenticate/passkey/options': () => ({ url: '/api/account/reauthenticate/passkey/options' }),
  'POST /api/account/reauthenticate': () => ({ url: '/api/account/reauthenticate', payload: { code: '123456' } }),
  'POST /api/user/:id/second-factor/reset': async () => ({
    url: `/api/user/${await newWebUser()}/second-factor/reset`,
  }),
  'PUT /api/role/second-factor/:id': async () => ({
    url: `/api/role/second-factor/${await newRole()}`,
    payload: { required: false },
  }),
  'POST /api/case/:caseId/plans/:planId/approve': async () => {
    const plan = await newPlanOfA();
    // Checked against the prescription first (the movements measured), or the approval is 409.
    await t.app.jobs.runDue();
    return {
      url: `/api/case/${plan.caseId}/plans/${plan.planId}/approve`,
      payload: { reviewedIn3d: true, findingsAcknowledged: true },
    };
  },
  'POST /api/case/:caseId/plans/:planId/request_changes': async () => {
    const plan = await newPlanOfA();
    return { url: `/api/case/${plan.caseId}/plans/${plan.planId}/request_changes`, payload: { comment: 'Less' } };
  },
  'GET /api/case/plan_files/:stageFileId/:fileName': (_actor, owner) => ({ url: owner.planFilePath }),
  'GET /api/case/:caseId/plans/:planId/views': (_actor, owner) => ({ url: owner.planViewPath }),
  'POST /api/case/:caseId/plans/:planId/comments': async () => {
    const plan = await newPlanOfA();
    return {
      url: `/api/case/${plan.caseId}/plans/${plan.planId}/comments`,
      payload: { stage: 0, arch: 'upper', point: [1, 2, 3], text: 'Here' },
    };
  },
  'GET /api/case/:caseId/plans/:planId/comments': (_actor, owner) => ({
    url: owner.planViewPath.replace(/views$/, 'comments'),
  }),
  'DELETE /api/case/:caseId/plans/:planId/comments/:commentId': async () => {
    const { caseId, planId, commentId } = await newCommentOfA(false);
    return { url: `/api/case/${caseId}/plans/${planId}/comments/${commentId}` };
  },
  'POST /api/case/:caseId/plans/:planId/comments/:commentId/resolve': async () => {
    const { caseId, planId, commentId } = await newCommentOfA(true);
    return { url: `/api/case/${caseId}/plans/${planId}/comments/${commentId}/resolve` };
  },
  'POST /api/case/:caseId/plans/:planId/comments/:commentId/replies': async () => {
    const { caseId, planId, commentId } = await newCommentOfA(true);
    return { url: `/api/case/${caseId}/plans/${planId}/comments/${commentId}/replies`, payload: { text: 'Done' } };
  },
  'POST /api/case/:caseId/plans/:planId/shares': async () => {
    const plan = await newPlanOfA();
    return { url: `/api/case/${plan.caseId}/plans/${plan.planId}/shares`, payload: { days: 2 } };
  },
  'GET /api/case/:caseId/plans/:planId/shares': (_actor, owner) => ({
    url: owner.planViewPath.replace(/views$/, 'shares'),
  }),
  'DELETE /api/case/:caseId/plans/:planId/shares/:shareId': async () => {
    const { caseId, planId, shareId } = await newShareOfA();
    return { url: `/api/case/${caseId}/plans/${planId}/shares/${shareId}` };
  },
  // One link made in beforeAll with its plan's copy: a link made here would wait for its copy's
  // job behind every case's the earlier entries left queued (over a minute on a loaded machine).
  'GET /api/shared/:token': (_actor, owner) => ({ url: owner.sharedPath }),
  'GET /api/shared/:token/views/:arch/mesh.glb': (_actor, owner) => ({
    url: `${owner.sharedPath}/views/upper/mesh.glb`,
  }),
  'GET /api/case/:caseId/plans/:planId/movements': (_actor, owner) => ({
    url: owner.planViewPath.replace(/views$/, 'movements'),
  }),
  'GET /api/case/plan-file-views/:stageFileId': (_actor, owner) => ({ url: owner.planFileViewPath }),
  'GET /api/case/plan-file-views/:stageFileId/mesh.glb': (_actor, owner) => ({
    url: `${owner.planFileViewPath}/mesh.glb`,
  }),
  'GET /api/case/:caseId/plans/:planId/views/:arch/mesh.glb': (_actor, owner) => ({
    url: `${owner.planViewPath}/upper/mesh.glb`,
  }),
  'GET /api/doctor/preferences': () => ({ url: '/api/doctor/preferences' }),
  'GET /api/inbox': () => ({ url: '/api/inbox' }),
  'GET /api/account/mail-preferences': () => ({ url: '/api/account/mail-preferences' }),
  'PUT /api/account/mail-preferences': () => ({
    url: '/api/account/mail-preferences',
    payload: { messages: 'digest', plans: 'immediate', status: 'off' },
  }),
  'GET /api/settings': () => ({ url: '/api/settings' }),
  'PUT /api/settings': () => ({ url: '/api/settings', payload: defaultLabSettings }),
  'GET /api/settings/couriers': () => ({ url: '/api/settings/couriers' }),
  'GET /api/account/time-zone': () => ({ url: '/api/account/time-zone' }),
  'PUT /api/account/time-zone': () => ({ url: '/api/account/time-zone', payload: { timeZone: 'Europe/Berlin' } }),
  'GET /api/account/locale': () => ({ url: '/api/account/locale' }),
  'PUT /api/account/locale': () => ({ url: '/api/account/locale', payload: { locale: 'de' } }),
  'GET /api/account/tooth-notation': () => ({ url: '/api/account/tooth-notation' }),
  'PUT /api/account/tooth-notation': () => ({
    url: '/api/account/tooth-notation',
    payload: { toothNotation: 'Palmer' },
  }),
  'GET /api/doctor/assistants': () => ({ url: '/api/doctor/assistants' }),
  'POST /api/doctor/assistants': () => ({
    url: '/api/doctor/assistants',
    payload: { email: `${uniqueName('invited')}@example.com`, firstName: 'In', lastName: 'Vited' },
  }),
  // A fresh assistant of doctor A each time: revoked once.
  'DELETE /api/doctor/assistants/:assistantUserId': async () => {
    const email = `${uniqueName('revoked')}@example.com`;
    json(
      await t.as(doctorA.token, {
        method: 'POST',
        url: '/api/doctor/assistants',
        payload: { email, firstName: 'Re', lastName: 'Voked' },
      }),
    );
    const list = json<{ userId: number; email: string }[]>(
      await t.as(doctorA.token, { method: 'GET', url: '/api/doctor/assistants' }),
    );
    return { url: `/api/doctor/assistants/${list.find((row) => row.email === email)!.userId}` };
  },
  'GET /api/assistant/doctors': () => ({ url: '/api/assistant/doctors' }),
  'PUT /api/doctor/preferences': () => ({ url: '/api/doctor/preferences', payload: { toothNumbering: 'FDI' } }),
  'GET /api/case/:caseId/prescription.pdf': (_actor, owner) => ({ url: `/api/case/${owner.caseId}/prescription.pdf` }),
  'OPTIONS /api/uploads/tus': () => ({ url: '/api/uploads/tus' }),
  'POST /api/uploads/tus': () => ({
    url: '/api/uploads/tus',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': tusFileName },
  }),
  'HEAD /api/uploads/tus/:uploadId': async () => ({
    url: `/api/uploads/tus/${await newUploadOfA()}`,
    headers: { 'tus-resumable': '1.0.0' },
  }),
  'PATCH /api/uploads/tus/:uploadId': async () => ({
    url: `/api/uploads/tus/${await newUploadOfA()}`,
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: Buffer.alloc(10),
  }),
  'DELETE /api/uploads/tus/:uploadId': async () => ({
    url: `/api/uploads/tus/${await newUploadOfA()}`,
    headers: { 'tus-resumable': '1.0.0' },
  }),
  'POST /api/case/drafts': () => ({ url: '/api/case/drafts', payload: { fields: { firstname: 'Matrix' } } }),
  'GET /api/case/drafts': () => ({ url: '/api/case/drafts' }),
  'GET /api/case/drafts/:draftId': async () => ({ url: `/api/case/drafts/${await newDraftOfA()}` }),
  'PUT /api/case/drafts/:draftId': async () => ({
    url: `/api/case/drafts/${await newDraftOfA()}`,
    payload: { fields: { lastname: 'Changed' } },
  }),
  'DELETE /api/case/drafts/:draftId': async () => ({ url: `/api/case/drafts/${await newDraftOfA()}` }),
};

const tusFileName = `filename ${Buffer.from('scan.stl').toString('base64')}`;

/** A fresh 10-byte tus upload of doctor A's, nothing sent yet. */
async function newUploadOfA(): Promise<string> {
  const created = await t.as(doctorA.token, {
    method: 'POST',
    url: '/api/uploads/tus',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': tusFileName },
  });
  if (created.statusCode !== 201) throw new Error(`tus upload: ${created.statusCode} ${created.body}`);
  return created.headers.location!.split('/').pop()!;
}

let doctorA: Awaited<ReturnType<typeof createCaseDoctor>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  cityId = await firstCityOf(t);
  doctorA = await createCaseDoctor(t);
  const doctorB = await createCaseDoctor(t);
  const inactive = await createDoctor(t);
  const pageless = await createStaff(t, []);
  pagelessRoleId = pageless.roleId;
  tokens.set('anonymous', null);
  // A session as a sign-in would start it: refused for the account, not for a missing session.
  const issued = await startSession(
    t.app.db,
    t.app.tokens,
    { userId: inactive.userId, roleId: 19, userType: 'Doctor', tokenVersion: 0 },
    { ip: '127.0.0.1', userAgent: 'matrix' },
  );
  tokens.set('inactiveDoctor', issued.token);
  tokens.set('doctorA', doctorA.token);
  tokens.set('doctorB', doctorB.token);
  tokens.set('staffWithoutPage', pageless.token);
  tokens.set('admin', admin);
  const assistant = await createAssistant(t, doctorA.token);
  tokens.set('assistant', assistant.token);
  accounts.set(assistant.token, { username: assistant.email, password: assistant.password });
  accounts.set(admin, testAdmin);
  accounts.set(pageless.token, { username: pageless.username, password: 'staff-passphrase' });
  for (const doctor of [doctorA, doctorB]) accounts.set(doctor.token, doctor);

  // Doctor A: a profile picture, a case and its attachment.
  const picture = { data: await makeImage(), name: 'face.png', type: 'image/png' };
  json(
    await asAdmin({
      method: 'PUT',
      url: `/api/doctor/edit/${doctorA.doctorId}`,
      payload: formData(await doctorEditFields(t, doctorA), { profilePic: picture }),
    }),
  );
  const detail = json<{ ProfilePic: string }[]>(
    await asAdmin({ method: 'GET', url: `/api/doctor/get_doctor_detail_by_user_Id/${doctorA.userId}` }),
  );
  ownerA = {
    userId: doctorA.userId,
    doctorId: doctorA.doctorId,
    clinicId: doctorA.clinicId,
    caseId: 0,
    filePath: '',
    scanPath: '',
    picturePath: detail[0]!.ProfilePic,
    messageFilePath: '',
    messageScanPath: '',
    planFilePath: '',
    planViewPath: '',
    planFileViewPath: '',
    sharedPath: '',
  };
  ownerA.caseId = await newCaseOfA();
  // Its scan's viewing copy, made in the background after the answer.
  await t.app.jobs.runDue();
  const attachments = json<{ FilePath: string }[]>(
    await t.as(doctorA.token, { method: 'GET', url: `/api/case/get_cases_attachments_by_case_id/${ownerA.caseId}` }),
  );
  ownerA.filePath = attachments[0]!.FilePath;
  ownerA.scanPath = attachments.find((attachment) => /\.stl$/i.test(attachment.FilePath))!.FilePath;
  const message = json<{ attachments: { url: string }[] }>(
    await t.as(doctorA.token, {
      method: 'POST',
      url: `/api/case/${ownerA.caseId}/messages`,
      payload: caseForm(
        { text: 'See the picture and the scan' },
        { files: [picture, { data: binaryStl(2), name: 'note.stl', type: 'model/stl' }] },
      ),
    }),
  );
  ownerA.messageFilePath = message.attachments[0]!.url;
  ownerA.messageScanPath = message.attachments[1]!.url;
  const plan = await newPlanOfA(ownerA.caseId);
  ownerA.planFilePath = plan.stageUrl;
  ownerA.planViewPath = `/api/case/${plan.caseId}/plans/${plan.planId}/views`;
  // Stages of other triangles: each gets a viewing copy of its own.
  const reshaped = [binaryStl(1), binaryStl(2)].map((data, stage) => ({ name: `upper_0${stage}.stl`, data }));
  await uploadPlan(t, admin, ownerA.caseId, planForm(planSummaryOf(1, 0), reshaped));
  const plans = json<{ stages: { url: string }[] }[]>(
    await asAdmin({ method: 'GET', url: `/api/case/${ownerA.caseId}/plans` }),
  );
  ownerA.planFileViewPath = `/api/case/plan-file-views/${plans[0]!.stages[0]!.url.split('/').at(-2)}`;
  ownerA.sharedPath = new URL((await newShareOfA()).url).pathname.replace(/^\/p\//, '/api/shared/');
  // The copies for the viewer of the message's scan and of the plans, made in the background after the answers.
  await t.app.jobs.runDue();
  ownerB = { ...ownerA, userId: doctorB.userId, doctorId: doctorB.doctorId, clinicId: doctorB.clinicId };
});
afterAll(() => t.close());

const isAllowedStatus = (status: number) => status >= 200 && status < 300;

function matches(outcome: Outcome, status: number): boolean {
  if (outcome === 'ok') return status >= 200 && status < 400;
  if (outcome === 'own') return isAllowedStatus(status);
  if (typeof outcome === 'number') return status === outcome;
  return outcome.includes(status);
}

/** A refusal expected (401/403/404/400) but a 2xx given. */
const isUnexpectedAllow = (outcome: Outcome, status: number) =>
  outcome !== 'ok' && outcome !== 'own' && !matches(outcome, 200) && isAllowedStatus(status);

describe('authorization matrix', () => {
  const totals = { routes: 0, pairs: 0, unexpectedAllows: 0 };
  afterAll(() => {
    console.log(
      `authorization matrix: ${totals.routes} routes x ${actors.length} actors = ${totals.pairs} pairs checked, ` +
        `${totals.unexpectedAllows} unexpected allows`,
    );
  });

  it('every registered route is in the table, with a request to call it', () => {
    const registered = [
      ...t.app.apiRoutes.map((route) => `${route.method} ${route.url}`),
      ...docsRoutes.filter((key) => t.app.hasRoute({ method: 'GET', url: key.slice(4) })),
    ];
    const keys = [...new Set(registered)];
    // HEAD shares its GET's entry and is checked with it, unless it has its own (tus has no GET).
    const entryKey = (key: string) => (key.startsWith('HEAD ') && !EXPECTED[key] ? `GET ${key.slice(5)}` : key);
    const missing = keys.flatMap((key) => [
      ...(EXPECTED[entryKey(key)] ? [] : [`route ${key} has no row in the endpoint table and no entry in UNLISTED`]),
      ...(requests[entryKey(key)] ? [] : [`route ${key} has no request builder in \`requests\``]),
    ]);
    const stale = Object.keys(EXPECTED)
      .filter((key) => !keys.includes(key))
      .map((key) => `${key} is in the table but not registered`);
    // An override says what the row cannot: one the row already gives hides nothing but a typo.
    const needless = Object.entries(OVERRIDES)
      .filter(([key, entry]) => {
        const row = tableRows.find((candidate) => keyOf(candidate) === key);
        return !row || JSON.stringify(expectedOf(row)) === JSON.stringify(entry);
      })
      .map(([key]) => `${key}: the override is what its row gives, or it has no row`);
    expect([...missing, ...stale, ...needless]).toEqual([]);
  });

  // One test per entry (its HEAD checked with its GET): each is a few requests, so a loaded
  // machine slows every test a little and none runs into a timeout meant for all ~1,600 pairs.
  it.each(Object.keys(EXPECTED))('%s: every actor gets what the table says', async (key) => {
    const url = key.slice(key.indexOf(' ') + 1);
    const hasOwnHead = key.startsWith('GET ') && t.app.hasRoute({ method: 'HEAD', url }) && !EXPECTED[`HEAD ${url}`];
    const entry = EXPECTED[key]!;
    const build = requests[key]!;
    const mismatches: string[] = [];
    const unexpectedAllows: string[] = [];
    const serverErrors: string[] = [];
    for (const method of [key.split(' ')[0] as InjectOptions['method'], ...(hasOwnHead ? ['HEAD' as const] : [])]) {
      for (const [index, actor] of actors.entries()) {
        // The row's places: staff with other pages fare as staff without the page; the assistant is last.
        const place = actor === 'staffWithOtherPages' ? 4 : actor === 'assistant' ? 7 : index;
        const outcome = entry.expect[place]!;
        const { token: override, asHead, ...request } = await build(actor, ownerA);
        const token = override !== undefined ? override : await tokenOf(actor, entry.page ?? 'Dashboard', key);
        const response = await t.as(token, { ...request, method: asHead ? 'HEAD' : method });
        totals.pairs++;
        const status = response.statusCode;
        const where = `${method} ${url} as ${actor}: ${status}, expected ${JSON.stringify(outcome)}`;
        if (status >= 500) serverErrors.push(`${where} ${response.body.slice(0, 200)}`);
        if (isUnexpectedAllow(outcome, status)) unexpectedAllows.push(where);
        if (!matches(outcome, status)) mismatches.push(`${where} ${response.body.slice(0, 200)}`);
        else if (outcome === 'own' && method === 'GET') {
          // Scoped to the caller whatever id was sent: the same answer as for their own id.
          const own = await build(actor, ownerB);
          const expected = await t.as(token, { ...own, method });
          if (response.body !== expected.body) unexpectedAllows.push(`${where}, but with another doctor's data`);
        }
      }
      totals.routes++;
    }
    totals.unexpectedAllows += unexpectedAllows.length;
    expect(unexpectedAllows).toEqual([]);
    expect(serverErrors).toEqual([]);
    expect(mismatches).toEqual([]);
  });
});
