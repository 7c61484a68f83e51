import { otherFilesField, photoFileTypes, scanFileTypes, defaultLabSettings } from '@portal/contract';
import { binaryStl, caseFields, caseForm, createCaseDoctor, submitCase } from '../helpers/case-factories.ts';
import {
  createAssistant,
  createStaff,
  doctorEditFields,
  doctorFields,
  firstCityOf,
  formData,
  mailedResetToken,
  makeImage,
} from '../helpers/factories.ts';
import { approvedPlan, planForm, planSummaryOf, stageFiles, uploadPlan } from '../helpers/plan-factories.ts';
import { testAdmin, type TestApp } from '../helpers/test-app.ts';
import type { Part } from './bodies.ts';

/** A valid request of a route, as the administrator would send it: the seed its fuzzing mutates. */
export interface Example {
  url: string;
  json?: Record<string, unknown>;
  form?: Part[];
  /** The form's file fields, for the files the fuzzer adds. */
  fileFields?: string[];
}

/** Records the examples point at: a doctor with a clinic, picture, case and file; a Web user; a role. */
export interface Fixture {
  adminUserId: number;
  doctor: { userId: number; doctorId: number; clinicId: number; username: string; email: string };
  /** The doctor's assistant (docs/decisions/assistants.md § Assistants). */
  assistant: { userId: number };
  caseId: number;
  filePath: string;
  picturePath: string;
  staff: { userId: number; roleId: number };
  cityId: number;
  resetToken: string;
  png: Buffer;
  messageFilePath: string;
  /** A plan version of the case, and one of its stage files. */
  planId: number;
  planFilePath: string;
  /** A case draft of the administrator's. */
  draftId: number;
  /** A session of the administrator's other than the one the fuzzer asks with. */
  sessionId: string;
  /** A case of the doctor's with an approved plan, and a progress scan of it. */
  progressCaseId: number;
  progressScanId: number;
}

/** Ids of existing records of every kind, for path params: the fixture's, the Doctor and administrator roles, pages 1 and 6. */
export const existingIds = (fixture: Fixture): string[] =>
  [
    fixture.adminUserId,
    fixture.doctor.userId,
    fixture.assistant.userId,
    fixture.doctor.doctorId,
    fixture.doctor.clinicId,
    fixture.caseId,
    fixture.staff.userId,
    fixture.staff.roleId,
    fixture.cityId,
    fixture.planId,
    fixture.draftId,
    fixture.progressCaseId,
    fixture.progressScanId,
    19,
    -1,
    1,
    6,
  ].map(String);

/** An interim token no sign-in issued, and a WebAuthn answer no authenticator made. */
const madeUpInterim = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const madeUpCredential = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
};

export async function createFixture(t: TestApp): Promise<Fixture> {
  const admin = await t.adminToken();
  const doctor = await createCaseDoctor(t);
  const png = await makeImage('png', 40);
  const asAdmin = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: FormData) => {
    const response = await t.as(admin, { method, url, payload });
    if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  };
  await asAdmin(
    'PUT',
    `/api/doctor/edit/${doctor.doctorId}`,
    formData(await doctorEditFields(t, doctor), { profilePic: { data: png, name: 'face.png', type: 'image/png' } }),
  );
  const [detail] = (await asAdmin('GET', `/api/doctor/get_doctor_detail_by_user_Id/${doctor.userId}`)).json<
    { ProfilePic: string }[]
  >();
  const submitted = await submitCase(
    t,
    doctor.token,
    caseForm(caseFields(doctor.clinicId), { maxillaryScan: { data: binaryStl(10), name: 'upper.stl' } }),
  );
  const { CaseId } = submitted.json<{ CaseId: number }>();
  const [attachment] = (await asAdmin('GET', `/api/case/get_cases_attachments_by_case_id/${CaseId}`)).json<
    { FilePath: string }[]
  >();
  const message = await t.as(doctor.token, {
    method: 'POST',
    url: `/api/case/${CaseId}/messages`,
    payload: caseForm({ text: 'A question' }, { files: { data: png, name: 'smile.png', type: 'image/png' } }),
  });
  if (message.statusCode !== 200) throw new Error(`message: ${message.statusCode} ${message.body}`);
  const plan = await uploadPlan(t, admin, CaseId, planForm(planSummaryOf(1, 0), stageFiles(1, 0)));
  if (plan.statusCode !== 200) throw new Error(`plan upload: ${plan.statusCode} ${plan.body}`);
  const [listed] = (await asAdmin('GET', `/api/case/${CaseId}/plans`)).json<{ stages: { url: string }[] }[]>();
  const staff = await createStaff(t, []);
  const draft = await t.as(admin, {
    method: 'POST',
    url: '/api/case/drafts',
    payload: { fields: { firstname: 'Fuzz' } },
  });
  if (draft.statusCode !== 200) throw new Error(`draft: ${draft.statusCode} ${draft.body}`);
  // A real reset link, as the doctor's mail carries it.
  const resetToken = await mailedResetToken(t, doctor);
  const otherDevice = await t.login(testAdmin.username, testAdmin.password);
  const assistant = await createAssistant(t, doctor.token);
  const progressCase = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
  const progressCaseId = progressCase.json<{ CaseId: number }>().CaseId;
  await approvedPlan(t, admin, doctor.token, progressCaseId);
  const progressScan = new FormData();
  progressScan.append('stage', '1');
  progressScan.append('upper', new Blob([new Uint8Array(binaryStl(10))]), 'upper.stl');
  const sent = await t.as(doctor.token, {
    method: 'POST',
    url: `/api/case/${progressCaseId}/progress-scans`,
    payload: progressScan,
  });
  if (sent.statusCode !== 202) throw new Error(`progress scan: ${sent.statusCode} ${sent.body}`);
  return {
    adminUserId: Number((await t.app.tokens.verify(admin))!.sub),
    doctor,
    assistant: { userId: assistant.userId },
    caseId: CaseId,
    filePath: attachment!.FilePath,
    picturePath: detail!.ProfilePic,
    staff,
    cityId: await firstCityOf(t),
    resetToken,
    png,
    messageFilePath: message.json<{ attachments: { url: string }[] }>().attachments[0]!.url,
    planId: plan.json<{ planId: number }>().planId,
    planFilePath: listed!.stages[0]!.url,
    draftId: draft.json<{ draftId: number }>().draftId,
    sessionId: (await t.app.tokens.verify(otherDevice))!.jti,
    progressCaseId,
    progressScanId: sent.json<{ progressScanId: number }>().progressScanId,
  };
}

const textParts = (fields: Record<string, string | number | boolean>): Part[] =>
  Object.entries(fields).map(([name, value]) => ({ name, value: String(value) }));
const picture = (fixture: Fixture): Part => ({
  name: 'profilePic',
  value: fixture.png,
  fileName: 'face.png',
  type: 'image/png',
});
const webUserFields = (fixture: Fixture) => ({
  username: 'fuzzuser',
  firstname: 'Wen',
  lastname: 'User',
  password: 'web-passphrase-1',
  email: 'fuzzuser@lab.test',
  mobileNo: '5550102',
  roleId: fixture.staff.roleId,
});
const clinicList = (fixture: Fixture, clinicId = 0) =>
  JSON.stringify([
    {
      clinicId,
      clinicName: 'Smile Clinic',
      countryId: 1,
      cityId: fixture.cityId,
      contactNo: '123456',
      address: '1 Main',
    },
  ]);
const caseFileFields = [...Object.keys(scanFileTypes), ...Object.keys(photoFileTypes), otherFilesField];

/** One valid request per route, by `METHOD /url` as Fastify registered it; HEAD uses its GET's. */
export const examples: Record<string, (fixture: Fixture) => Example> = {
  'GET /api/health': () => ({ url: '/api/health' }),
  'GET /api/ready': () => ({ url: '/api/ready' }),
  'POST /api/auth/login': () => ({ url: '/api/auth/login', json: { ...testAdmin } }),
  'POST /api/auth/forgot_password': () => ({ url: '/api/auth/forgot_password', json: { username: 'nobody-here' } }),
  'POST /api/auth/logout': () => ({ url: '/api/auth/logout' }),
  'GET /api/auth/sessions': () => ({ url: '/api/auth/sessions' }),
  'DELETE /api/auth/sessions/:sessionId': (f) => ({ url: `/api/auth/sessions/${f.sessionId}` }),
  'POST /api/auth/sessions/end_others': () => ({ url: '/api/auth/sessions/end_others' }),
  'GET /api/user/:id/sessions': (f) => ({ url: `/api/user/${f.staff.userId}/sessions` }),
  'DELETE /api/user/:id/sessions': (f) => ({ url: `/api/user/${f.staff.userId}/sessions` }),
  // The second step with an interim token no sign-in issued: fuzzed tokens, codes and WebAuthn answers must all be refused with 4xx.
  'POST /api/auth/second-factor/totp': () => ({
    url: '/api/auth/second-factor/totp',
    json: { interimToken: madeUpInterim, code: '123456' },
  }),
  'POST /api/auth/second-factor/recovery': () => ({
    url: '/api/auth/second-factor/recovery',
    json: { interimToken: madeUpInterim, code: 'ABCD-EFGH-JKMN-PQRS' },
  }),
  'POST /api/auth/second-factor/passkey/options': () => ({
    url: '/api/auth/second-factor/passkey/options',
    json: { interimToken: madeUpInterim },
  }),
  'POST /api/auth/second-factor/passkey': () => ({
    url: '/api/auth/second-factor/passkey',
    json: { interimToken: madeUpInterim, credential: madeUpCredential },
  }),
  'POST /api/auth/passkey/options': () => ({ url: '/api/auth/passkey/options' }),
  'POST /api/auth/passkey': () => ({ url: '/api/auth/passkey', json: { credential: madeUpCredential } }),
  'GET /api/account/second-factor': () => ({ url: '/api/account/second-factor' }),
  'POST /api/account/second-factor/totp': () => ({ url: '/api/account/second-factor/totp' }),
  'POST /api/account/second-factor/totp/confirm': () => ({
    url: '/api/account/second-factor/totp/confirm',
    json: { code: '000000' },
  }),
  'DELETE /api/account/second-factor/totp': () => ({ url: '/api/account/second-factor/totp' }),
  'POST /api/account/second-factor/recovery-codes': () => ({ url: '/api/account/second-factor/recovery-codes' }),
  'POST /api/account/second-factor/passkey/options': () => ({ url: '/api/account/second-factor/passkey/options' }),
  'POST /api/account/second-factor/passkey': () => ({
    url: '/api/account/second-factor/passkey',
    json: { credential: madeUpCredential, name: 'Laptop' },
  }),
  'DELETE /api/account/second-factor/passkey/:id': () => ({ url: '/api/account/second-factor/passkey/1' }),
  'POST /api/account/reauthenticate/passkey/options': () => ({ url: '/api/account/reauthenticate/passkey/options' }),
  // A code, not the password: each fuzzed password would cost an argon2 hash.
  'POST /api/account/reauthenticate': () => ({ url: '/api/account/reauthenticate', json: { code: '123456' } }),
  'POST /api/user/:id/second-factor/reset': (f) => ({ url: `/api/user/${f.staff.userId}/second-factor/reset` }),
  'PUT /api/role/second-factor/:id': (f) => ({
    url: `/api/role/second-factor/${f.staff.roleId}`,
    json: { required: false },
  }),
  'GET /api/country/get_countries_list': () => ({ url: '/api/country/get_countries_list' }),
  'GET /api/city/get_cities_list/:id': () => ({ url: '/api/city/get_cities_list/1' }),

  'GET /api/role/get_roles_list': () => ({ url: '/api/role/get_roles_list' }),
  'POST /api/role/add': () => ({ url: '/api/role/add', json: { roleName: 'Fuzz role', description: 'fuzzed' } }),
  'PUT /api/role/edit/:id': (f) => ({
    url: `/api/role/edit/${f.staff.roleId}`,
    json: { roleName: 'Fuzz edited', description: 'edited' },
  }),
  'DELETE /api/role/delete/:id': (f) => ({ url: `/api/role/delete/${f.staff.roleId}` }),

  'GET /api/permission/get_menu/:roleId': () => ({ url: '/api/permission/get_menu/19' }),
  'GET /api/permission/get_role_permissions/:roleId': () => ({ url: '/api/permission/get_role_permissions/19' }),
  'POST /api/permission/add/:roleId/:pageId': (f) => ({ url: `/api/permission/add/${f.staff.roleId}/1` }),
  'DELETE /api/permission/delete/:roleId/:pageId': (f) => ({ url: `/api/permission/delete/${f.staff.roleId}/1` }),

  'GET /api/user/get_users_list': () => ({ url: '/api/user/get_users_list' }),
  'POST /api/user/add': (f) => ({
    url: '/api/user/add',
    form: [...textParts({ ...webUserFields(f), locale: 'fr' }), picture(f)],
    fileFields: ['profilePic'],
  }),
  'PUT /api/user/edit/:id': (f) => ({
    url: `/api/user/edit/${f.staff.userId}`,
    form: [...textParts({ ...webUserFields(f), password: '', removeProfilePic: 'false' }), picture(f)],
    fileFields: ['profilePic'],
  }),
  'DELETE /api/user/delete/:id': (f) => ({ url: `/api/user/delete/${f.staff.userId}` }),

  'GET /api/doctor/get_doctors_list': () => ({ url: '/api/doctor/get_doctors_list' }),
  'GET /api/doctor/get_doctor_detail_by_user_Id/:id': (f) => ({
    url: `/api/doctor/get_doctor_detail_by_user_Id/${f.doctor.userId}`,
  }),
  'POST /api/doctor/add': (f) => ({
    url: '/api/doctor/add',
    form: [
      ...textParts(doctorFields({ username: 'fuzzdoctor', clinicList: clinicList(f), locale: 'pt-BR' })),
      picture(f),
    ],
    fileFields: ['profilePic'],
  }),
  'PUT /api/doctor/edit/:id': (f) => {
    const { userType: _userType, ...fields } = doctorFields({
      username: f.doctor.username,
      email: f.doctor.email,
      password: '',
      isActive: 'true',
      clinicList: clinicList(f, f.doctor.clinicId),
    });
    return {
      url: `/api/doctor/edit/${f.doctor.doctorId}`,
      form: [...textParts(fields), picture(f)],
      fileFields: ['profilePic'],
    };
  },
  'DELETE /api/doctor/delete/:id': (f) => ({ url: `/api/doctor/delete/${f.doctor.doctorId}` }),
  'POST /api/doctor/activate/:id': (f) => ({ url: `/api/doctor/activate/${f.doctor.doctorId}` }),
  'POST /api/doctor/request_password_reset/:id': (f) => ({
    url: `/api/doctor/request_password_reset/${f.doctor.doctorId}`,
  }),
  'GET /api/doctor/verify_token/:token': (f) => ({ url: `/api/doctor/verify_token/${f.resetToken}` }),
  'POST /api/doctor/reset_password': (f) => ({
    url: '/api/doctor/reset_password',
    json: { token: f.resetToken, newPassword: 'new-secret-pass' },
  }),
  'GET /api/clinic/get_clinics_list/:id': (f) => ({ url: `/api/clinic/get_clinics_list/${f.doctor.doctorId}` }),
  'GET /api/clinic/get_clinics_list_by_user_id/:id': (f) => ({
    url: `/api/clinic/get_clinics_list_by_user_id/${f.doctor.userId}`,
  }),
  'POST /api/email/send': (f) => ({
    url: '/api/email/send',
    json: { to: f.doctor.email, templateName: 'activation' },
  }),
  'GET /api/uploads/users/:userId/:fileName': (f) => ({ url: f.picturePath }),

  'POST /api/case/add': (f) => ({
    url: '/api/case/add',
    form: [
      // An order from the fixture's case: a refinement for its doctor (docs/decisions/cases.md § Orders from a case).
      ...textParts(
        caseFields(f.doctor.clinicId, { userId: f.doctor.userId, parentCaseId: f.caseId, orderType: 'Refinement' }),
      ),
      { name: 'maxillaryScan', value: binaryStl(4), fileName: 'upper.stl', type: 'application/octet-stream' },
      { name: 'front', value: f.png, fileName: 'front.png', type: 'image/png' },
    ],
    fileFields: caseFileFields,
  }),
  'GET /api/case/get_all_stats/:userId': (f) => ({ url: `/api/case/get_all_stats/${f.doctor.userId}` }),
  'GET /api/case/get_cases_by_status/:status/:userId': (f) => ({
    url: `/api/case/get_cases_by_status/all/${f.doctor.userId}?page=1&pageSize=10&search=Pat&sort=-CreatedAt`,
  }),
  'GET /api/case/get_cases_attachments_by_case_id/:caseId': (f) => ({
    url: `/api/case/get_cases_attachments_by_case_id/${f.caseId}`,
  }),
  'GET /api/case/get_case_history/:caseId': (f) => ({ url: `/api/case/get_case_history/${f.caseId}` }),
  'GET /api/case/:caseId': (f) => ({ url: `/api/case/${f.caseId}` }),
  'GET /api/case/:caseId/timeline': (f) => ({ url: `/api/case/${f.caseId}/timeline` }),
  'GET /api/case/assignees': () => ({ url: '/api/case/assignees' }),
  'GET /api/case/turnaround': () => ({ url: '/api/case/turnaround' }),
  'GET /api/case/doctor-options': (f) => ({ url: `/api/case/doctor-options?search=Pat&userId=${f.doctor.userId}` }),
  'PUT /api/case/:caseId/assignee': (f) => ({ url: `/api/case/${f.caseId}/assignee`, json: { userId: null } }),
  'GET /api/case/:caseId/notes': (f) => ({ url: `/api/case/${f.caseId}/notes` }),
  'POST /api/case/:caseId/notes': (f) => ({ url: `/api/case/${f.caseId}/notes`, json: { text: 'Scan checked' } }),
  'GET /api/case/:caseId/files.zip': (f) => ({ url: `/api/case/${f.caseId}/files.zip` }),
  'PUT /api/case/status/:caseId': (f) => ({
    url: `/api/case/status/${f.caseId}`,
    json: { status: 'dispatched', note: 'Packed', reason: 'Sent back', courier: 'DHL', trackingNumber: 'JD0146' },
  }),
  'GET /api/case/files/:attachmentId/:fileName': (f) => ({ url: f.filePath }),
  'GET /api/case/file-thumbnails/:attachmentId': (f) => ({
    url: `/api/case/file-thumbnails/${f.filePath.split('/').at(-2)}`,
  }),
  'GET /api/case/file-views/:attachmentId': (f) => ({ url: `/api/case/file-views/${f.filePath.split('/').at(-2)}` }),
  'GET /api/case/file-views/:attachmentId/mesh.glb': (f) => ({
    url: `/api/case/file-views/${f.filePath.split('/').at(-2)}/mesh.glb`,
  }),

  'GET /api/events': () => ({ url: '/api/events' }),

  'GET /api/case/unread': () => ({ url: '/api/case/unread' }),
  'GET /api/case/:caseId/messages': (f) => ({ url: `/api/case/${f.caseId}/messages` }),
  'POST /api/case/:caseId/messages': (f) => ({
    url: `/api/case/${f.caseId}/messages`,
    form: [
      { name: 'text', value: 'Can stage 3 start later?' },
      { name: 'files', value: f.png, fileName: 'smile.png', type: 'image/png' },
    ],
    fileFields: ['files'],
  }),
  'POST /api/case/:caseId/messages/read': (f) => ({ url: `/api/case/${f.caseId}/messages/read` }),
  'GET /api/case/message_files/:fileId/:fileName': (f) => ({ url: f.messageFilePath }),
  'GET /api/case/message-file-views/:fileId': (f) => ({
    url: `/api/case/message-file-views/${f.messageFilePath.split('/').at(-2)}`,
  }),
  'GET /api/case/message-file-views/:fileId/mesh.glb': (f) => ({
    url: `/api/case/message-file-views/${f.messageFilePath.split('/').at(-2)}/mesh.glb`,
  }),
  'POST /api/case/:caseId/plans': (f) => ({
    url: `/api/case/${f.caseId}/plans`,
    form: [
      { name: 'summary', value: JSON.stringify(planSummaryOf(1, 1)) },
      ...stageFiles(1, 1).map((file) => ({
        name: 'stages',
        value: file.data,
        fileName: file.name,
        type: 'application/octet-stream',
      })),
    ],
    fileFields: ['stages'],
  }),
  'GET /api/case/:caseId/plans': (f) => ({ url: `/api/case/${f.caseId}/plans` }),
  'POST /api/case/:caseId/progress-scans': (f) => ({
    url: `/api/case/${f.progressCaseId}/progress-scans`,
    form: [
      { name: 'stage', value: '1' },
      { name: 'upper', value: binaryStl(10), fileName: 'upper.stl', type: 'application/octet-stream' },
    ],
    fileFields: ['upper', 'lower'],
  }),
  'GET /api/case/:caseId/progress-scans': (f) => ({ url: `/api/case/${f.progressCaseId}/progress-scans` }),
  'GET /api/case/:caseId/progress-scans/:progressScanId': (f) => ({
    url: `/api/case/${f.progressCaseId}/progress-scans/${f.progressScanId}`,
  }),
  'GET /api/case/:caseId/progress-scans/:progressScanId/view/:arch': (f) => ({
    url: `/api/case/${f.progressCaseId}/progress-scans/${f.progressScanId}/view/upper`,
  }),
  'POST /api/case/:caseId/plans/:planId/approve': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/approve`,
    payload: { reviewedIn3d: true, findingsAcknowledged: true },
  }),
  'POST /api/case/:caseId/plans/:planId/request_changes': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/request_changes`,
    json: { comment: 'Less expansion on 13' },
  }),
  'GET /api/case/plan_files/:stageFileId/:fileName': (f) => ({ url: f.planFilePath }),
  'GET /api/case/:caseId/plans/:planId/views': (f) => ({ url: `/api/case/${f.caseId}/plans/${f.planId}/views` }),
  'POST /api/case/:caseId/plans/:planId/comments': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/comments`,
    payload: { stage: 0, arch: 'upper', point: [1.5, -2, 30], text: 'Intrude this one' },
  }),
  'GET /api/case/:caseId/plans/:planId/comments': (f) => ({ url: `/api/case/${f.caseId}/plans/${f.planId}/comments` }),
  'DELETE /api/case/:caseId/plans/:planId/comments/:commentId': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/comments/1`,
  }),
  'POST /api/case/:caseId/plans/:planId/comments/:commentId/replies': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/comments/1/replies`,
    payload: { text: 'Reduced in the next version' },
  }),
  'POST /api/case/:caseId/plans/:planId/comments/:commentId/resolve': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/comments/1/resolve`,
  }),
  'POST /api/case/:caseId/plans/:planId/shares': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/shares`,
    payload: { days: 7, email: 'patient@example.com' },
  }),
  'GET /api/case/:caseId/plans/:planId/shares': (f) => ({ url: `/api/case/${f.caseId}/plans/${f.planId}/shares` }),
  'DELETE /api/case/:caseId/plans/:planId/shares/:shareId': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/shares/1`,
  }),
  'GET /api/shared/:token': () => ({ url: `/api/shared/${'a'.repeat(43)}` }),
  'GET /api/shared/:token/views/:arch/mesh.glb': () => ({ url: `/api/shared/${'a'.repeat(43)}/views/upper/mesh.glb` }),
  'GET /api/case/:caseId/plans/:planId/movements': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/movements`,
  }),
  'GET /api/case/plan-file-views/:stageFileId': (f) => ({
    url: `/api/case/plan-file-views/${f.planFilePath.split('/').at(-2)}`,
  }),
  'GET /api/case/plan-file-views/:stageFileId/mesh.glb': (f) => ({
    url: `/api/case/plan-file-views/${f.planFilePath.split('/').at(-2)}/mesh.glb`,
  }),
  'GET /api/case/:caseId/plans/:planId/views/:arch/mesh.glb': (f) => ({
    url: `/api/case/${f.caseId}/plans/${f.planId}/views/upper/mesh.glb`,
  }),

  'GET /api/audit': () => ({
    url: '/api/audit?page=1&pageSize=20&action=auth.login&actor=admin&outcome=failure&from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z',
  }),

  'GET /api/doctor/preferences': () => ({ url: '/api/doctor/preferences' }),
  'GET /api/inbox': () => ({ url: '/api/inbox' }),
  'GET /api/account/mail-preferences': () => ({ url: '/api/account/mail-preferences' }),
  'PUT /api/account/mail-preferences': () => ({
    url: '/api/account/mail-preferences',
    json: { messages: 'digest', plans: 'immediate', status: 'off' },
  }),
  'GET /api/settings': () => ({ url: '/api/settings' }),
  'PUT /api/settings': () => ({ url: '/api/settings', json: defaultLabSettings }),
  'GET /api/settings/couriers': () => ({ url: '/api/settings/couriers' }),
  'GET /api/account/time-zone': () => ({ url: '/api/account/time-zone' }),
  'PUT /api/account/time-zone': () => ({ url: '/api/account/time-zone', json: { timeZone: 'Europe/Berlin' } }),
  'GET /api/account/locale': () => ({ url: '/api/account/locale' }),
  'PUT /api/account/locale': () => ({ url: '/api/account/locale', json: { locale: 'de' } }),
  'GET /api/account/tooth-notation': () => ({ url: '/api/account/tooth-notation' }),
  'PUT /api/account/tooth-notation': () => ({ url: '/api/account/tooth-notation', json: { toothNotation: 'Palmer' } }),
  'GET /api/doctor/assistants': () => ({ url: '/api/doctor/assistants' }),
  'POST /api/doctor/assistants': () => ({
    url: '/api/doctor/assistants',
    json: { email: 'helper@example.com', firstName: 'Hel', lastName: 'Per' },
  }),
  'DELETE /api/doctor/assistants/:assistantUserId': (f) => ({ url: `/api/doctor/assistants/${f.staff.userId}` }),
  'GET /api/assistant/doctors': () => ({ url: '/api/assistant/doctors' }),
  'PUT /api/doctor/preferences': () => ({
    url: '/api/doctor/preferences',
    json: { midline: 'Maintain', iprPreference: 'First preference', toothNumbering: 'FDI', shipment: '' },
  }),
  'GET /api/case/:caseId/prescription.pdf': (f) => ({ url: `/api/case/${f.caseId}/prescription.pdf` }),
  'POST /api/case/drafts': () => ({
    url: '/api/case/drafts',
    json: {
      fields: { firstname: 'Pat', dob: '2001-03-05', arches: 'Both', moveTooth: '3,14', clinicId: '1' },
      files: { maxillaryScan: 'upload-1', otherFiles: ['upload-2'] },
      step: 1,
      doctorUserId: null,
    },
  }),
  'GET /api/case/drafts': () => ({ url: '/api/case/drafts' }),
  'GET /api/case/drafts/:draftId': (f) => ({ url: `/api/case/drafts/${f.draftId}` }),
  'PUT /api/case/drafts/:draftId': (f) => ({
    url: `/api/case/drafts/${f.draftId}`,
    json: { fields: { lastname: 'Patient', gender: 'Female' }, files: {}, step: 2, doctorUserId: f.doctor.userId },
  }),
  'DELETE /api/case/drafts/:draftId': (f) => ({ url: `/api/case/drafts/${f.draftId}` }),

  // tus routes read tus headers, not bodies: fuzzed bodies and ids must be refused with 4xx.
  'OPTIONS /api/uploads/tus': () => ({ url: '/api/uploads/tus' }),
  'POST /api/uploads/tus': () => ({ url: '/api/uploads/tus' }),
  'HEAD /api/uploads/tus/:uploadId': () => ({ url: `/api/uploads/tus/${'0'.repeat(32)}` }),
  'PATCH /api/uploads/tus/:uploadId': () => ({ url: `/api/uploads/tus/${'0'.repeat(32)}`, json: {} }),
  'DELETE /api/uploads/tus/:uploadId': () => ({ url: `/api/uploads/tus/${'0'.repeat(32)}` }),

  // Registered before the auth plugin, so not in `app.apiRoutes`; the fuzz test adds them when present.
  'GET /api/docs': () => ({ url: '/api/docs' }),
  'GET /api/docs/json': () => ({ url: '/api/docs/json' }),
  'GET /api/docs/yaml': () => ({ url: '/api/docs/yaml' }),
  'GET /api/docs/static/index.html': () => ({ url: '/api/docs/static/index.html' }),
  'GET /api/docs/static/swagger-initializer.js': () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  'GET /api/docs/static/*': () => ({ url: '/api/docs/static/swagger-ui.css' }),
};
