import { Trans, useLingui } from '@lingui/react/macro';
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
import { serverText } from '../../../lib/server-text.ts';
import { sessionsEndedText } from '../../../lib/sessions-ended.ts';

/** The columns a phone shows. */
const phoneColumns: (keyof User | 'actions')[] = ['UserName', 'actions'];

export function UsersList({ onAdd, onEdit }: { onAdd: () => void; onEdit: (user: User) => void }) {
  const { t } = useLingui();
  // Paged, sorted and searched by the server (docs/decisions/lists-and-search.md § Paging).
  const list = useServerListState({ columnAccessor: 'UserId' satisfies keyof User, direction: 'asc' });
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
    const userName = user.UserName;
    if (!(await confirmDelete(t`User ''${userName}''`))) return;
    try {
      const answer = await deleteUser.mutateAsync(user.UserId);
      notifySuccess(serverText(answer.message) || fallbackMessages.deleted);
    } catch (error) {
      notifyDeleteError(error);
    }
  };

  /** Signs the user out on every device (docs/decisions/sign-in-and-sessions.md § Sessions). */
  const endSessionsOf = async (user: User) => {
    const userName = user.UserName;
    const message = t`Sign ${userName} out on every device?`;
    if (!(await confirmAction({ message, confirmLabel: t`End sessions` }))) return;
    try {
      notifySuccess(sessionsEndedText((await endSessions.mutateAsync(user.UserId)).ended));
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  /** Removes the user's second factors, after a confirmation (docs/decisions/second-factor-changes.md). */
  const resetSecondFactorOf = async (user: User) => {
    const userName = user.UserName;
    const message = t`Reset the second factor of ${userName}? Their authenticator app, passkeys and recovery codes are removed and they are signed out everywhere; a role that requires a second factor has them set one up at their next sign-in.`;
    if (!(await confirmAction({ message, confirmLabel: t`Reset second factor` }))) return;
    try {
      notifySuccess(serverText((await resetFactor.mutateAsync(user.UserId)).message));
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  return (
    <>
      <PageTitle
        title={t`Users`}
        actions={
          <Button onClick={onAdd}>
            <Trans>+ Add New</Trans>
          </Button>
        }
      />
      <ListSearch label={t`Search by user name or first name`} value={list.search} onChange={list.setSearch} />
      <ServerTable<User>
        records={users.data?.rows}
        total={users.data?.total}
        isFetching={users.isFetching}
        idAccessor="UserId"
        phoneColumns={phoneColumns}
        pinLastColumn
        page={list.page}
        onPageChange={list.setPage}
        pageSize={list.pageSize}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus}
        onSortStatusChange={list.setSortStatus}
        columns={[
          pagedSerialNumberColumn<User>(list.page, list.pageSize),
          { accessor: 'UserName', title: t`User Name`, sortable: true },
          { accessor: 'FirstName', title: t`First Name`, sortable: true },
          { accessor: 'LastName', title: t`Last Name`, sortable: true },
          { accessor: 'Email', title: t`Email`, sortable: true },
          { accessor: 'MobileNo', title: t`Mobile No`, sortable: true },
          {
            accessor: 'actions',
            title: t`Actions`,
            render: (user) => (
              <RowActions
                name={user.UserName}
                onEdit={() => onEdit(user)}
                onDelete={() => void remove(user)}
                extra={[
                  { label: t`End sessions`, icon: IconLogout, onClick: () => void endSessionsOf(user) },
                  {
                    label: t`Reset second factor`,
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
