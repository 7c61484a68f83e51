import { RequirePage } from '../guards.tsx';
import { useRoles } from '../../features/roles/api/get-roles.ts';
import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** The role picker lists the roles of the Roles feature. */
function UsersRoute() {
  const roles = useRoles();
  return <UsersScreen roles={roles.data ?? []} />;
}

export function Component() {
  return (
    <RequirePage page="/users">
      <UsersRoute />
    </RequirePage>
  );
}
