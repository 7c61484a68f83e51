import { RequirePage } from '../guards.tsx';
import { RolePermissionsScreen } from '../../features/role-permissions/components/role-permissions-screen.tsx';
import { useRoles } from '../../features/roles/api/get-roles.ts';

/** The role selector lists the roles of the Roles feature. */
function RolePermissionsRoute() {
  const roles = useRoles();
  return <RolePermissionsScreen roles={roles.data ?? []} />;
}

export function Component() {
  return (
    <RequirePage page="/rolepermissions">
      <RolePermissionsRoute />
    </RequirePage>
  );
}
