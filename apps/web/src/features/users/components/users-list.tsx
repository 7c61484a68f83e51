import { Button } from '@mantine/core';
import type { User } from '@portal/contract';
import { IconLogout } from '@tabler/icons-react';
import { confirmAction, confirmDelete } from '../../../components/confirm-delete.tsx';
import { LocalTable, serialNumberColumn } from '../../../components/data-table.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { errorMessage, fallbackMessages, notifyDeleteError, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useEndUserSessions } from '../api/end-user-sessions.ts';
import { useUsers } from '../api/get-users.ts';

export function UsersList({ onAdd, onEdit }: { onAdd: () => void; onEdit: (user: User) => void }) {
  const users = useUsers();
  const deleteUser = useDeleteUser();
  const endSessions = useEndUserSessions();

  const remove = async (user: User) => {
    if (!(await confirmDelete())) return;
    try {
      const answer = await deleteUser.mutateAsync(user.UserId);
      notifySuccess(answer.message || fallbackMessages.deleted);
    } catch (error) {
      notifyDeleteError(error);
    }
  };

  /** Signs the user out on every device (docs/decisions.md § Sessions). */
  const endSessionsOf = async (user: User) => {
    const message = `Sign ${user.UserName} out on every device?`;
    if (!(await confirmAction({ message, confirmLabel: 'End sessions' }))) return;
    try {
      notifySuccess((await endSessions.mutateAsync(user.UserId)).message);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  return (
    <>
      <PageTitle title="Users" actions={<Button onClick={onAdd}>+ Add New</Button>} />
      <LocalTable<User>
        records={users.data}
        isLoading={users.isLoading}
        idAccessor="UserId"
        phoneColumns={['UserName', 'actions']}
        pinLastColumn
        searchKeys={['UserName', 'FirstName']}
        searchLabel="Search by user name or first name"
        columns={[
          serialNumberColumn(users.data),
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
                extra={[{ label: 'End sessions', icon: IconLogout, onClick: () => void endSessionsOf(user) }]}
              />
            ),
          },
        ]}
      />
    </>
  );
}
