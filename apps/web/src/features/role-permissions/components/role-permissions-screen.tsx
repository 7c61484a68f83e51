import { useLingui } from '@lingui/react/macro';
import { Checkbox, Paper, Select } from '@mantine/core';
import type { Role, RolePermission } from '@portal/contract';
import { useState } from 'react';
import { LocalTable, serialNumberColumn } from '../../../components/data-table.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { useRolePermissions } from '../api/get-role-permissions.ts';
import { useGrantPageAccess } from '../api/grant-page-access.ts';
import { useRevokePageAccess } from '../api/revoke-page-access.ts';

/** Picks a role and grants or revokes each page for it; failures are only logged (spec section 8). */
export function RolePermissionsScreen({ roles }: { roles: Role[] }) {
  const { t } = useLingui();
  const [roleId, setRoleId] = useState<string | null>(null);
  const selectedRoleId = roleId === null ? null : Number(roleId);
  const permissions = useRolePermissions(selectedRoleId);
  const grant = useGrantPageAccess();
  const revoke = useRevokePageAccess();
  /** The page whose box has a call in flight: that box waits for its answer, the others do not. */
  const savingPageId = grant.isPending ? grant.variables.pageId : revoke.isPending ? revoke.variables.pageId : null;

  const accessLabel = (pageName: string) => t`Has access to ${pageName}`;

  const setAccess = (row: RolePermission, hasAccess: boolean) => {
    if (selectedRoleId === null) return;
    const change = hasAccess ? grant : revoke;
    change.mutateAsync({ roleId: selectedRoleId, pageId: row.PageId }).catch((error: unknown) => {
      console.error('Could not change page access', error);
    });
  };

  return (
    <>
      <PageTitle title={t`Role Permissions`} />
      <Paper withBorder p="md" mb="md" maw={420}>
        <Select
          label={t`Role`}
          placeholder={t`Select a role`}
          searchable
          nothingFoundMessage={t`No role found`}
          data={roles.map((role) => ({ value: String(role.RoleId), label: role.RoleName }))}
          value={roleId}
          onChange={setRoleId}
        />
      </Paper>
      <LocalTable<RolePermission>
        records={permissions.data}
        isLoading={permissions.isLoading}
        idAccessor="PageId"
        emptyText={t`No record found`}
        columns={[
          { ...serialNumberColumn(permissions.data), title: t`S.#` },
          { accessor: 'PageName', title: t`Page Name`, sortable: true },
          {
            accessor: 'HasAccess',
            title: t`Has Access`,
            render: (row) => (
              <Checkbox
                aria-label={accessLabel(row.PageName)}
                checked={row.HasAccess}
                disabled={row.PageId === savingPageId}
                onChange={(event) => setAccess(row, event.currentTarget.checked)}
              />
            ),
          },
        ]}
      />
    </>
  );
}
