import { Button } from '@mantine/core';
import type { AccountListQuery, User } from '@portal/contract';
import { IconLogout, IconShieldOff } from '@tabler/icons-react';
import { confirmAction, confirmDelete } from '../../../components/confirm-delete.tsx';
import {
  ListSearch,
  pagedSerialNumberColumn,
  ServerTable,
  useServerListState,
} from '../../../components/data-table.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { errorMessage, fallbackMessages, notifyDeleteError, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useEndUserSessions } from '../api/end-user-sessions.ts';
import { useResetSecondFactor } from '../api/reset-second-factor.ts';
import { useUsers } from '../api/get-users.ts';

export function UsersList({ onAdd, onEdit }: { onAdd: () => void; onEdit: (user: User) => void }) {
  // Paged, sorted and searched by the server (docs/decisions/lists-and-search.md § Paging).
  const list = useServerListState({ columnAccessor: 'UserId', direction: 'asc' });
  const users = useUsers({
    page: list.page,
    pageSize: list.pageSize,
    search: list.debouncedSearch,
    sort: list.sort as AccountListQuery['sort'],
  });
  const deleteUser = useDeleteUser();
  const endSessions = useEndUserSessions();
  const resetFactor = useResetSecondFactor();

  const remove = async (user: User) => {
    if (!(await confirmDelete(`User '${user.UserName}'`))) return;
    try {
      const answer = await deleteUser.mutateAsync(user.UserId);
      notifySuccess(answer.message || fallbackMessages.deleted);
    } catch (error) {
      notifyDeleteError(error);
    }
  };

  /** Signs the user out on every device (docs/decisions/sign-in-and-sessions.md § Sessions). */
  const endSessionsOf = async (user: User) => {
    const message = `Sign ${user.UserName} out on every device?`;
    if (!(await confirmAction({ message, confirmLabel: 'End sessions' }))) return;
    try {
      notifySuccess((await endSessions.mutateAsync(user.UserId)).message);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  /** Removes the user's second factors, after a confirmation (docs/decisions/second-factor-changes.md). */
  const resetSecondFactorOf = async (user: User) => {
    const message = `Reset the second factor of ${user.UserName}? Their authenticator app, passkeys and recovery codes are removed and they are signed out everywhere; a role that requires a second factor has them set one up at their next sign-in.`;
    if (!(await confirmAction({ message, confirmLabel: 'Reset second factor' }))) return;
    try {
      notifySuccess((await resetFactor.mutateAsync(user.UserId)).message);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  return (
    <>
      <PageTitle title="Users" actions={<Button onClick={onAdd}>+ Add New</Button>} />
      <ListSearch label="Search by user name or first name" value={list.search} onChange={list.setSearch} />
      <ServerTable<User>
        records={users.data?.rows}
        total={users.data?.total}
        isFetching={users.isFetching}
        idAccessor="UserId"
        phoneColumns={['UserName', 'actions']}
        pinLastColumn
        page={list.page}
        onPageChange={list.setPage}
        pageSize={list.pageSize}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus}
        onSortStatusChange={list.setSortStatus}
        columns={[
          pagedSerialNumberColumn<User>(list.page, list.pageSize),
          { accessor: 'UserName', title: 'User Name', sortable: true },
          { accessor: 'FirstName', title: 'First Name', sortable: true },
          { accessor: 'LastName', title: 'Last Name', sortable: true },
          { accessor: 'Email', sortable: true },
          { accessor: 'MobileNo', title: 'Mobile No', sortable: true },
          {
            accessor: 'actions',
            title: 'Actions',
            render: (user) => (
              <RowActions
                name={user.UserName}
                onEdit={() => onEdit(user)}
                onDelete={() => void remove(user)}
                extra={[
                  { label: 'End sessions', icon: IconLogout, onClick: () => void endSessionsOf(user) },
                  {
                    label: 'Reset second factor',
                    icon: IconShieldOff,
                    onClick: () => void resetSecondFactorOf(user),
                  },
                ]}
              />
            ),
          },
        ]}
      />
    </>
  );
}
