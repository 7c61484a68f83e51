import { useLingui } from '@lingui/react/macro';
import type { Doctor, DoctorListQuery } from '@portal/contract';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import {
  ListSearch,
  pagedSerialNumberColumn,
  ServerTable,
  useServerListState,
} from '../../../components/data-table.tsx';
import type { TableColumn } from '../../../components/table-column.ts';
import { RowActions } from '../../../components/row-actions.tsx';
import { errorMessage, fallbackMessages, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useDeleteDoctor } from '../api/delete-doctor.ts';
import { useDoctors } from '../api/get-doctors.ts';

/** The columns a phone shows. */
const phoneColumns: (keyof Doctor | 'actions')[] = ['UserName', 'IsActive', 'actions'];

/**
 * The doctors table, paged, sorted and searched by the server (names, e-mail and mobile);
 * Status; Edit and Delete.
 */
export function DoctorsList({ onEdit }: { onEdit: (doctor: Doctor) => void }) {
  const { t } = useLingui();
  const list = useServerListState({ columnAccessor: 'UserId' satisfies keyof Doctor, direction: 'asc' });
  const doctors = useDoctors({
    page: list.page,
    pageSize: list.pageSize,
    search: list.debouncedSearch,
    sort: list.sort as DoctorListQuery['sort'],
  });
  const deleteDoctor = useDeleteDoctor();

  const remove = async (doctor: Doctor) => {
    const name = `${doctor.FirstName} ${doctor.LastName}`;
    if (!(await confirmDelete(t`Doctor ''${name}''`))) return;
    try {
      const answer = await deleteDoctor.mutateAsync(doctor.DoctorId);
      notifySuccess(serverText(answer.message) || fallbackMessages.deleted);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.deleteFailed));
    }
  };

  const columns: TableColumn<Doctor>[] = [
    pagedSerialNumberColumn<Doctor>(list.page, list.pageSize),
    { accessor: 'UserName', title: t`User Name`, sortable: true },
    { accessor: 'FirstName', title: t`First Name`, sortable: true },
    { accessor: 'LastName', title: t`Last Name`, sortable: true },
    { accessor: 'Email', title: t`Email`, sortable: true },
    { accessor: 'MobileNo', title: t`Mobile No`, sortable: true },
    {
      accessor: 'IsActive',
      title: t`Status`,
      sortable: true,
      render: (doctor) => (doctor.IsActive ? t`Active` : t`Inactive`),
    },
    {
      accessor: 'actions',
      title: t`Actions`,
      render: (doctor) => (
        <RowActions name={doctor.UserName} onEdit={() => onEdit(doctor)} onDelete={() => void remove(doctor)} />
      ),
    },
  ];

  return (
    <>
      <ListSearch label={t`Search doctors`} value={list.search} onChange={list.setSearch} />
      <ServerTable<Doctor>
        records={doctors.data?.rows}
        total={doctors.data?.total}
        columns={columns}
        phoneColumns={phoneColumns}
        idAccessor="DoctorId"
        isFetching={doctors.isFetching}
        page={list.page}
        onPageChange={list.setPage}
        pageSize={list.pageSize}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus}
        onSortStatusChange={list.setSortStatus}
      />
    </>
  );
}
