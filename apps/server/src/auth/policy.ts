import type { PageUrl } from '@portal/contract';
import { ADMIN_ROLE_ID } from '@portal/contract';

/**
 * What a route lets in, declared on every route as `config.access`:
 * - 'public': anyone, signed in or not;
 * - 'signedIn': any signed-in user; the service scopes what it returns to the caller;
 * - 'administrator': the administrator alone (no role's pages grant it);
 * - { pages, doctors }: the administrator, Web users whose role has one of `pages`, and
 *   doctors when `doctors` is true (again scoped to themselves by the service).
 */
export type Access = 'public' | 'signedIn' | 'administrator' | { pages: PageUrl[]; doctors?: boolean };

export interface SignedInUser {
  userId: number;
  roleId: number;
  userType: 'Web' | 'Doctor';
  /** Set for doctors: the DoctorId their own records hang from. */
  doctorId: number | null;
  pages: ReadonlySet<string>;
  jti: string;
  exp: number;
}

export const isAdministrator = (user: SignedInUser) => user.userType === 'Web' && user.roleId === ADMIN_ROLE_ID;
export const isDoctor = (user: SignedInUser) => user.userType === 'Doctor';

/** Staff: the administrator, or a Web user whose role has the page. */
export const canUsePage = (user: SignedInUser, page: PageUrl) =>
  isAdministrator(user) || (user.userType === 'Web' && user.pages.has(page));

export function isAllowed(user: SignedInUser, access: Exclude<Access, 'public'>): boolean {
  if (access === 'signedIn') return true;
  if (access === 'administrator') return isAdministrator(user);
  if (isDoctor(user)) return access.doctors === true;
  return access.pages.some((page) => canUsePage(user, page));
}
