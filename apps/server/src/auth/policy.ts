import { ADMIN_ROLE_ID, type Access, type PageUrl, type UserType, type NotFoundSubject } from '@portal/contract';
import { coded, forbidden, notFound } from '../lib/errors.ts';

/**
 * Who may do what, in one place: the routes' declared access (checked before any handler
 * by plugins/auth.ts) and the finer rules routes and services apply to a record.
 */

export type { UserType };
export interface ServedDoctor {
  userId: number;
  doctorId: number;
}

export interface SignedInUser {
  userId: number;
  roleId: number;
  userType: UserType;
  /** Set for doctors: the DoctorId their own records hang from. */
  doctorId: number | null;
  /**
   * The doctors whose cases the caller works on as the doctor's side: a doctor themselves,
   * an assistant the active doctors whose invitation they hold (read on every request, so a
   * revocation counts at the next one), staff none. See docs/decisions/assistants.md § Assistants.
   */
  servedDoctors: readonly ServedDoctor[];
  pages: ReadonlySet<string>;
  jti: string;
  exp: number;
  /**
   * Signed in with the interim token of a sign-in that must enrol a second factor first:
   * taken only by the enrolment routes (`acceptsEnrolmentToken`), never a session.
   */
  isEnrolling?: boolean;
  /**
   * A full session whose role came to require a second factor its user has none of: refused
   * everywhere but the routes that set one up (`beforeEnrolment`), read with the session.
   */
  mustEnrol?: boolean;
}

export const isAdministrator = (user: SignedInUser) => user.userType === 'Web' && user.roleId === ADMIN_ROLE_ID;
export const isDoctor = (user: SignedInUser) => user.userType === 'Doctor';
export const isAssistant = (user: SignedInUser) => user.userType === 'Assistant';
/** A doctor or an assistant: scoped to the doctors they serve, never staff. */
export const isDoctorSide = (user: SignedInUser) => user.userType !== 'Web';
/** Does the caller work on this doctor's cases (their own, or as the doctor's assistant)? */
export const servesDoctor = (user: SignedInUser, doctorUserId: number) =>
  user.servedDoctors.some((doctor) => doctor.userId === doctorUserId);

/** Staff: the administrator, or a Web user whose role has the page. */
const canUsePage = (user: SignedInUser, page: PageUrl) =>
  isAdministrator(user) || (user.userType === 'Web' && user.pages.has(page));

/** An endpoint's declared access (see `Access` in the contract). */
export function isAllowed(user: SignedInUser, access: Exclude<Access, 'public'>): boolean {
  if (access === 'signedIn') return true;
  if (access === 'administrator') return isAdministrator(user);
  if (isDoctor(user)) return access.doctors === true;
  if (isAssistant(user)) return access.assistants === true;
  return access.pages.some((page) => canUsePage(user, page));
}

/** Only the administrator hands out, edits or removes the administrator role. */
export function assertMayTouchAdministrator(user: SignedInUser | null, roleIds: number[]): void {
  if (roleIds.includes(ADMIN_ROLE_ID) && !(user && isAdministrator(user))) {
    throw forbidden('Only the administrator can manage administrator accounts');
  }
}

/**
 * No privilege raising (docs/decisions/access.md § Roles): a user other than the administrator
 * hands out, to a user they add or edit or to a role, only pages their own role has.
 */
export function assertHoldsPages(
  user: SignedInUser,
  pageUrls: readonly string[],
  refusal: 'grantPagesNotHeld' | 'roleWithPagesNotHeld' | 'editUserWithPagesNotHeld' | 'endSessionsWithPagesNotHeld',
): void {
  if (isAdministrator(user)) return;
  const missing = pageUrls.filter((page) => !user.pages.has(page));
  if (missing.length > 0) throw coded(403, refusal, { pages: missing.join(', ') });
}

/** Nobody but the administrator changes their own role or their own role's pages. */
export function assertNotOwnRole(user: SignedInUser, roleId: number, message: string): void {
  if (!isAdministrator(user) && user.userType === 'Web' && user.roleId === roleId) throw forbidden(message);
}

/** Adding a doctor as staff (role and status may be set) rather than registering as one. */
export const canManageDoctors = (user: SignedInUser | null) => user !== null && canUsePage(user, '/doctors');

/**
 * A doctor reaches only records hanging from themselves (by UserId or DoctorId), an assistant
 * their own and their doctors'; staff let in by the endpoint's pages reach any. Another
 * doctor's record is "not found", so that ids cannot be probed.
 */
export function assertOwnRecordIfDoctor(
  user: SignedInUser,
  owner: { userId: number } | { doctorId: number },
  what: NotFoundSubject = 'Doctor',
): void {
  if (!isDoctorSide(user)) return;
  const isOwn =
    'userId' in owner
      ? owner.userId === user.userId || servesDoctor(user, owner.userId)
      : user.servedDoctors.some((doctor) => doctor.doctorId === owner.doctorId);
  if (!isOwn) throw notFound(what);
}

/** Everyone reads the menu of their own role; other roles' menus are for the Role Permissions page. */
export function assertMayReadMenu(user: SignedInUser, roleId: number): void {
  const isOwnRole = user.userType === 'Web' && user.roleId === roleId;
  if (!isOwnRole && !canUsePage(user, '/rolepermissions')) throw forbidden();
}

/**
 * Whose cases a caller may read, as doctors' UserIds: a doctor only their own, whatever id
 * they pass; an assistant their doctors' (one of them when they name it); staff all (0) or
 * one doctor's. `null` means every case; an empty list, none.
 */
export function caseOwnerScope(user: SignedInUser, requestedUserId: number): readonly number[] | null {
  if (isDoctorSide(user)) {
    const served = user.servedDoctors.map((doctor) => doctor.userId);
    return served.includes(requestedUserId) ? [requestedUserId] : served;
  }
  return requestedUserId === 0 ? null : [requestedUserId];
}

/**
 * Who may order a refinement, retainer or replacement from a case: its doctor, or staff, who
 * reach POST /case/add only with the Add Case page.
 * See docs/decisions/cases.md § Orders from a case.
 */
export function canOrderFrom(user: SignedInUser, parentDoctorUserId: number): boolean {
  return !isDoctorSide(user) || servesDoctor(user, parentDoctorUserId);
}

/**
 * Only the case's doctor decides on its treatment plan: staff and the doctor's assistants
 * (who may read the case) are refused with 403, another doctor gets 404 as for any record of
 * theirs.
 */
export function assertCaseDoctor(user: SignedInUser, doctorUserId: number): void {
  if (!isDoctor(user)) throw forbidden("Only the case's doctor can approve a treatment plan or request changes");
  if (user.userId !== doctorUserId) throw notFound('Case');
}
