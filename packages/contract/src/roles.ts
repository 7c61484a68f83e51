import { z } from 'zod';
import { optionalText, requiredText } from './fields.ts';

export { ADMIN_ROLE_ID, DOCTOR_ROLE_ID } from './session.ts';

export const roleRequest = z.object({
  roleName: requiredText('Role Name', 100),
  description: optionalText('Description', 500),
});
export type RoleRequest = z.infer<typeof roleRequest>;

export const role = z.object({ RoleId: z.number(), RoleName: z.string(), Description: z.string() });
export type Role = z.infer<typeof role>;
