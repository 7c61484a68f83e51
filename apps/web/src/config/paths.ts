/** Every route of the portal, named once (docs/spec.md section 2). */
export const paths = {
  login: '/',
  register: '/register',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  /** What waits for the caller across cases: unread messages, plans awaiting them. */
  inbox: '/inbox',
  roles: '/roles',
  rolePermissions: '/rolepermissions',
  users: '/users',
  doctors: '/doctors',
  cases: '/cases',
  /** One case's page; `casePath(id)` builds it. */
  caseDetail: '/cases/:caseId',
  profile: '/profile',
  /** A doctor's assistants: invite, list, revoke (docs/decisions/assistants.md § Assistants). */
  assistants: '/assistants',
  /** The user's own second factors, for everyone signed in. */
  security: '/security',
  terms: '/terms',
  /** A patient's link to one plan version: public, no sign-in. */
  sharedPlan: '/p/:token',
  audit: '/audit',
  settings: '/settings',
} as const;

/** The address of one case's page: shared, linked from lists and e-mailed to its doctor. */
export const casePath = (caseId: number) => `/cases/${caseId}`;

/** One case's page at its messages or its treatment plan (the sections' ids). */
export const caseSectionPath = (caseId: number, section: 'messages' | 'plan') => `${casePath(caseId)}#${section}`;

/** The case form with one of the caller's drafts open (docs/decisions/case-form.md § Drafts). */
export const caseDraftPath = (draftId: number) => `/cases?draft=${draftId}`;

/**
 * A refinement ordered from a progress scan: the case form as an order from the case, prefilled
 * with the scan's off-track teeth and its files as the order's scans (docs/decisions/progress-scans.md).
 */
export const refinementFromScanPath = (caseId: number, progressScanId: number) =>
  `/cases?${new URLSearchParams({ from: String(caseId), order: 'Refinement', progressScan: String(progressScanId) }).toString()}`;
