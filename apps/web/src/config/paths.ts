/** Every route of the portal, named once (docs/spec.md section 2). */
export const paths = {
  login: '/',
  register: '/register',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  roles: '/roles',
  rolePermissions: '/rolepermissions',
  users: '/users',
  doctors: '/doctors',
  cases: '/cases',
  profile: '/profile',
  terms: '/terms',
  audit: '/audit',
} as const;
