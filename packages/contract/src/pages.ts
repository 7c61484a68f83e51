import { z } from 'zod';

/** The six pages that role permissions grant (docs/decisions.md § Seeds). */
export const pages = [
  { PageId: 1, PageName: 'Dashboard', PageUrl: '/dashboard' },
  { PageId: 2, PageName: 'Roles', PageUrl: '/roles' },
  { PageId: 3, PageName: 'Role Permissions', PageUrl: '/rolepermissions' },
  { PageId: 4, PageName: 'Users', PageUrl: '/users' },
  { PageId: 5, PageName: 'Doctors', PageUrl: '/doctors' },
  { PageId: 6, PageName: 'Add Case', PageUrl: '/cases' },
] as const;

export type PageUrl = (typeof pages)[number]['PageUrl'];

export const menuItem = z.object({ PageId: z.number(), PageName: z.string(), PageUrl: z.string() });
export type MenuItem = z.infer<typeof menuItem>;

export const rolePermission = z.object({ PageId: z.number(), PageName: z.string(), HasAccess: z.boolean() });
export type RolePermission = z.infer<typeof rolePermission>;
