/**
 * The server's refusals whose words it puts together at run time (issue 43): each has a stable
 * code, a key of `serverMessages`, whose value is its ICU template in the spec's English with
 * named placeholders. An error answer carries `code` and `params` beside its `message`, which
 * stays the English text, the template filled in (`renderServerMessage`). The web app's
 * catalogs hold each template under the id `server.<code>` (lingui/contract-messages.ts takes
 * them from here, braces and all), so it shows the refusal in the language shown.
 * No zod here: the web app imports this with the client.
 */
export const serverMessages = {
  notFound: '{what} not found',
  fieldNameNotAllowed: 'Field name "{field}" is not allowed',
  fieldTooLong: '{field} is too long',
  unexpectedFileField: 'Unexpected file field "{field}"',
  caseAlreadyInStatus: 'The case is already {status}',
  versionHasNoArchStages: 'This version has no {arch} stages',
  stageOutOfRange: 'Stage must be from 0 to {stages}',
  zipTooManyEntries: 'The ZIP has {entries} entries; at most {maxEntries} are allowed',
  zipEntryEncrypted: '{file}: encrypted ZIP entries are not accepted',
  scanNotStl: 'The {arch} scan is not an STL mesh',
  sendOneScan: 'Send one {arch} scan',
  meshTimeLimit: 'This mesh took longer than {seconds} s to convert.',
  meshMemoryLimit: 'This mesh needed more than the {megabytes} MB a fit may take.',
  zipUnreadable: 'The ZIP cannot be read: {detail}',
  // Why a mesh is no STL (apps/server/src/meshes/stl.ts): `triangle` counts from 1, `byte` from 0.
  stlNoTriangles: 'not a valid STL file: it has no triangles',
  stlNoArea: 'not a valid STL file: every triangle in it has no area',
  stlCoordinateNotNumber: 'not a valid STL file: triangle {triangle} has a coordinate that is not a number',
  stlCoordinateNotFinite: 'not a valid STL file: a coordinate is not a finite number',
  stlNotBinaryOrText: 'not a valid STL file: it is neither binary STL nor text starting with "solid"',
  stlExpectedFacet: 'not a valid STL file: expected "facet" or "endsolid" at byte {byte}',
  stlTextAfterEnd: 'not a valid STL file: unexpected text after "endsolid" at byte {byte}',
  // `word` is an ASCII STL keyword (normal, outer, loop, vertex, endloop, endfacet), never translated.
  stlExpectedWord: 'not a valid STL file: expected "{word}" at byte {byte}',
  stlExpectedNumber: 'not a valid STL file: expected a number at byte {byte}',
  // Why a plan arch's stages are not one set of teeth moved (apps/server/src/meshes/plan-view.ts).
  planStageTriangles:
    'the stages are not the same shells moved: a stage has {triangles} triangles, stage 0 has {stageZeroTriangles}',
  planStageNotJoined:
    'the stages are not the same shells moved: triangle {triangle} of a stage is not joined as in stage 0',
  // `offMm` is text, the distance to three decimals as the English has always shown it ("0.200").
  planShellChangesShape:
    'the stages are not the same shells moved: a shell changes shape between stages (a vertex {offMm} mm off a rigid motion)',
  // Why a progress scan could not be fitted (apps/server/src/services/plans/progress-scans.ts),
  // stored with the scan: `reason` is the plan's or the job's own English, as it came.
  progressScanTooLarge: 'the {arch} scan is larger than the {megabytes} MB a progress scan may be',
  progressPlanHasNoStages: 'the approved plan has no {arch} stages',
  progressPlanEndsAtStage: "the approved plan's {arch} arch ends at stage {stages}",
  progressPlanNotMeasurable: "the plan's {arch} teeth cannot be measured: {reason}",
  progressScanTooManyTriangles:
    'the {arch} scan does not fit the plan: the scan has {triangles} triangles, more than the {maxTriangles} a progress scan may have',
  progressScanDoesNotFit:
    "the {arch} scan does not fit the plan: the scan does not fit this plan's {arch} arch: {found} of its {teeth} teeth were found in it where one placement of the plan puts them, and at least {needed} are needed. Check that it is this patient's {arch} arch, with the teeth in view",
  progressFitNotCompleted: 'the fit could not be completed: {reason}',
  // A progress scan's form (apps/server/src/services/plans/receive-progress-scan.ts), under its field too.
  progressStageOutOfRange: "Stage must be from 1 to {lastStage}, the approved plan's last stage",
  scanArchHasNoStages: 'The approved plan has no {arch} stages',
  scanArchEndsAtStage: "The approved plan's {arch} arch ends at stage {stages}",
  progressScansTooMany: 'A case keeps at most {max} progress scans',
  // `reason` is the contract's own words for why the file was refused.
  messageFileRefused: '{file}: {reason}',
  pictureTooLarge: 'The picture is too large: at most {megapixels} megapixels (such as 6000x4000).',
  caseTextTooLarge: "The case form's text is at most {kilobytes} KB",
  fieldLongerThanForm: 'Field "{field}" is longer than the form allows',
  routeNotFound: 'Route {method} {path} not found',
  roleAssignedToOneUser: 'This role is assigned to 1 user and cannot be deleted',
  roleAssignedToUsers: 'This role is assigned to {count} users and cannot be deleted',
  // `until` is "2026-12-06 10:43 UTC" (services/second-step-lock.ts).
  secondStepLocked:
    'Too many wrong codes: signing in to this account is locked until {until}. Try again then, or ask the administrator to reset your second factor.',
  // No privilege raising (docs/decisions/access.md § Roles): `pages` lists the missing pages' paths.
  grantPagesNotHeld: 'You can only grant pages you have yourself (missing: {pages})',
  roleWithPagesNotHeld: 'You can only give a user a role with pages you have yourself (missing: {pages})',
  editUserWithPagesNotHeld: 'You can only edit users whose role has pages you have yourself (missing: {pages})',
  endSessionsWithPagesNotHeld:
    'You can only end the sessions of users whose role has pages you have yourself (missing: {pages})',
} as const;

export type ServerMessageCode = keyof typeof serverMessages;

/**
 * What the server puts under a field beside a refusal: fixed words, in the web app's catalogs
 * as the contract's other texts are, so that they show translated under the field.
 */
export const serverFieldMessages = {
  tooLong: 'Too long',
  unexpectedFile: 'Unexpected file',
  notStl: 'Not an STL mesh',
  archHasNoStages: 'This arch has no stages',
  unchanged: 'Unchanged',
} as const;
export type ServerMessageParams = Record<string, string | number>;

/**
 * What a "not found" refusal names: a fixed list of words, so that each is in the catalogs and
 * the web app shows it translated in `{what} not found`.
 */
export const notFoundSubjects = [
  'Assistant',
  'Authenticator app',
  'Case',
  'Comment',
  'Country',
  'Doctor',
  'Draft',
  'File',
  'Link',
  'Page',
  'Passkey',
  'Picture',
  'Plan',
  'Progress scan',
  'Role',
  'Session',
  'Upload',
  'User',
  'Viewing copy',
] as const;
export type NotFoundSubject = (typeof notFoundSubjects)[number];

/**
 * The arches as a refusal names them (`The {arch} scan is not an STL mesh`): the words the
 * server sends as parameters, kept in the catalogs so that they show translated. Read by
 * lingui/contract-messages.ts, not imported.
 * @public
 */
export const serverMessageArchWords = { upper: 'upper', lower: 'lower' } as const;

/** A template filled in with its parameters, as plain text: the English `message` of an answer. */
export function renderServerMessage(code: ServerMessageCode, params: ServerMessageParams = {}): string {
  return serverMessages[code].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : placeholder,
  );
}
