/**
 * The six pages that role permissions grant (docs/decisions/accounts.md § Seeds). Plain values,
 * without zod: the signed-in menu lists them without loading the validation library.
 */
export const pages = [
  { PageId: 1, PageName: 'Dashboard', PageUrl: '/dashboard' },
  { PageId: 2, PageName: 'Roles', PageUrl: '/roles' },
  { PageId: 3, PageName: 'Role Permissions', PageUrl: '/rolepermissions' },
  { PageId: 4, PageName: 'Users', PageUrl: '/users' },
  { PageId: 5, PageName: 'Doctors', PageUrl: '/doctors' },
  { PageId: 6, PageName: 'Add Case', PageUrl: '/cases' },
] as const;

export type PageUrl = (typeof pages)[number]['PageUrl'];
