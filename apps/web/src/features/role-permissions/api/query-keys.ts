export const rolePermissionKeys = {
  all: ['role-permissions'] as const,
  ofRole: (roleId: number) => [...rolePermissionKeys.all, roleId] as const,
};
