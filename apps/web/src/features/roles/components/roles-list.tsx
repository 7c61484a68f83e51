import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Switch } from '@mantine/core';
import type { Role } from '@portal/contract';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { LocalTable, serialNumberColumn, type LocalTableView } from '../../../components/data-table.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { errorMessage, fallbackMessages, notifyDeleteError, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { isAdministrator, useSession, type Session } from '../../../lib/session.ts';
import { useDeleteRole } from '../api/delete-role.ts';
import { useRoles } from '../api/get-roles.ts';
import { useSetRoleSecondFactor } from '../api/set-role-second-factor.ts';

/** The columns a phone shows. */
const phoneColumns: (keyof Role | 'actions')[] = ['RoleName', 'actions'];

export function RolesList({
  view,
  onAdd,
  onEdit,
}: {
  view: LocalTableView;
  onAdd: () => void;
  onEdit: (role: Role) => void;
}) {
  const { t } = useLingui();
  const roles = useRoles();
  const deleteRole = useDeleteRole();
  const setSecondFactor = useSetRoleSecondFactor();
  // Only the administrator may change it (the server refuses anyone else).
  const isAdmin = isAdministrator(useSession() as Session);

  const toggleSecondFactor = async (role: Role, required: boolean) => {
    try {
      notifySuccess(serverText((await setSecondFactor.mutateAsync({ roleId: role.RoleId, required })).message));
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  const secondFactorLabel = (roleName: string) => t`Require a second factor for ${roleName}`;

  const remove = async (role: Role) => {
    const roleName = role.RoleName;
    if (!(await confirmDelete(t`Role ''${roleName}''`))) return;
    try {
      const answer = await deleteRole.mutateAsync(role.RoleId);
      notifySuccess(serverText(answer.message) || fallbackMessages.deleted);
    } catch (error) {
      notifyDeleteError(error);
    }
  };

  return (
    <>
      <PageTitle
        title={t`Roles`}
        actions={
          <Button onClick={onAdd}>
            <Trans>+ Add New</Trans>
          </Button>
        }
      />
      <LocalTable<Role>
        records={roles.data}
        view={view}
        isLoading={roles.isLoading}
        idAccessor="RoleId"
        phoneColumns={phoneColumns}
        pinLastColumn
        searchKeys={['RoleName', 'Description']}
        searchLabel={t`Search by role name or description`}
        columns={[
          serialNumberColumn(roles.data),
          { accessor: 'RoleName', title: t`Role Name`, sortable: true },
          { accessor: 'Description', title: t`Description`, sortable: true },
          ...(isAdmin
            ? [
                {
                  accessor: 'RequiresSecondFactor' as const,
                  title: t`Second factor`,
                  render: (role: Role) => (
                    <Switch
                      aria-label={secondFactorLabel(role.RoleName)}
                      checked={role.RequiresSecondFactor}
                      onChange={(event) => void toggleSecondFactor(role, event.currentTarget.checked)}
                    />
                  ),
                },
              ]
            : []),
          {
            accessor: 'actions',
            title: t`Actions`,
            render: (role) => (
              <RowActions name={role.RoleName} onEdit={() => onEdit(role)} onDelete={() => void remove(role)} />
            ),
          },
        ]}
      />
    </>
  );
}
