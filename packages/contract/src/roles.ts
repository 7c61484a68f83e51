import { z } from 'zod';
import { optionalText, requiredText } from './fields.ts';

export { ADMIN_ROLE_ID, DOCTOR_ROLE_ID } from './session.ts';

export const roleRequest = z.object({
  roleName: requiredText('Role Name', 100),
  description: optionalText('Description', 500),
});
export type RoleRequest = z.infer<typeof roleRequest>;

export const role = z.object({
  RoleId: z.number(),
  RoleName: z.string(),
  Description: z.string(),
  /** Its users sign in with a second factor; set by the administrator alone. */
  RequiresSecondFactor: z.boolean(),
});
export type Role = z.infer<typeof role>;

/** A page of a role's menu, and whether a role has a page (the Role Permissions page). */
export const menuItem = z.object({ PageId: z.number(), PageName: z.string(), PageUrl: z.string() });
export type MenuItem = z.infer<typeof menuItem>;

export const rolePermission = z.object({ PageId: z.number(), PageName: z.string(), HasAccess: z.boolean() });
export type RolePermission = z.infer<typeof rolePermission>;
