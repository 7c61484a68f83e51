import { Button, Switch } from '@mantine/core';
import type { Role } from '@portal/contract';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { LocalTable, serialNumberColumn, type LocalTableView } from '../../../components/data-table.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { errorMessage, fallbackMessages, notifyDeleteError, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { isAdministrator, useSession, type Session } from '../../../lib/session.ts';
import { useDeleteRole } from '../api/delete-role.ts';
import { useRoles } from '../api/get-roles.ts';
import { useSetRoleSecondFactor } from '../api/set-role-second-factor.ts';

export function RolesList({
  view,
  onAdd,
  onEdit,
}: {
  view: LocalTableView;
  onAdd: () => void;
  onEdit: (role: Role) => void;
}) {
  const roles = useRoles();
  const deleteRole = useDeleteRole();
  const setSecondFactor = useSetRoleSecondFactor();
  // Only the administrator may change it (the server refuses anyone else).
  const isAdmin = isAdministrator(useSession() as Session);

  const toggleSecondFactor = async (role: Role, required: boolean) => {
    try {
      notifySuccess((await setSecondFactor.mutateAsync({ roleId: role.RoleId, required })).message);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  const remove = async (role: Role) => {
    if (!(await confirmDelete(`Role '${role.RoleName}'`))) return;
    try {
      const answer = await deleteRole.mutateAsync(role.RoleId);
      notifySuccess(answer.message || fallbackMessages.deleted);
    } catch (error) {
      notifyDeleteError(error);
    }
  };

  return (
    <>
      <PageTitle title="Roles" actions={<Button onClick={onAdd}>+ Add New</Button>} />
      <LocalTable<Role>
        records={roles.data}
        view={view}
        isLoading={roles.isLoading}
        idAccessor="RoleId"
        phoneColumns={['RoleName', 'actions']}
        pinLastColumn
        searchKeys={['RoleName', 'Description']}
        searchLabel="Search by role name or description"
        columns={[
          serialNumberColumn(roles.data),
          { accessor: 'RoleName', title: 'Role Name', sortable: true },
          { accessor: 'Description', sortable: true },
          ...(isAdmin
            ? [
                {
                  accessor: 'RequiresSecondFactor' as const,
                  title: 'Second factor',
                  render: (role: Role) => (
                    <Switch
                      aria-label={`Require a second factor for ${role.RoleName}`}
                      checked={role.RequiresSecondFactor}
                      onChange={(event) => void toggleSecondFactor(role, event.currentTarget.checked)}
                    />
                  ),
                },
              ]
            : []),
          {
            accessor: 'actions',
            title: 'Actions',
            render: (role) => (
              <RowActions name={role.RoleName} onEdit={() => onEdit(role)} onDelete={() => void remove(role)} />
            ),
          },
        ]}
      />
    </>
  );
}
