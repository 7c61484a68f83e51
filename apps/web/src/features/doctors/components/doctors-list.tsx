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
import { useDeleteDoctor } from '../api/delete-doctor.ts';
import { useDoctors } from '../api/get-doctors.ts';

/**
 * The doctors table, paged, sorted and searched by the server (names, e-mail and mobile);
 * Status; Edit and Delete.
 */
export function DoctorsList({ onEdit }: { onEdit: (doctor: Doctor) => void }) {
  const list = useServerListState({ columnAccessor: 'UserId', direction: 'asc' });
  const doctors = useDoctors({
    page: list.page,
    pageSize: list.pageSize,
    search: list.debouncedSearch,
    sort: list.sort as DoctorListQuery['sort'],
  });
  const deleteDoctor = useDeleteDoctor();

  const remove = async (doctor: Doctor) => {
    if (!(await confirmDelete(`Doctor '${doctor.FirstName} ${doctor.LastName}'`))) return;
    try {
      const answer = await deleteDoctor.mutateAsync(doctor.DoctorId);
      notifySuccess(answer.message || fallbackMessages.deleted);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.deleteFailed));
    }
  };

  const columns: TableColumn<Doctor>[] = [
    pagedSerialNumberColumn<Doctor>(list.page, list.pageSize),
    { accessor: 'UserName', title: 'User Name', sortable: true },
    { accessor: 'FirstName', title: 'First Name', sortable: true },
    { accessor: 'LastName', title: 'Last Name', sortable: true },
    { accessor: 'Email', title: 'Email', sortable: true },
    { accessor: 'MobileNo', title: 'Mobile No', sortable: true },
    {
      accessor: 'IsActive',
      title: 'Status',
      sortable: true,
      render: (doctor) => (doctor.IsActive ? 'Active' : 'Inactive'),
    },
    {
      accessor: 'actions',
      title: 'Actions',
      render: (doctor) => (
        <RowActions name={doctor.UserName} onEdit={() => onEdit(doctor)} onDelete={() => void remove(doctor)} />
      ),
    },
  ];

  return (
    <>
      <ListSearch label="Search doctors" value={list.search} onChange={list.setSearch} />
      <ServerTable<Doctor>
        records={doctors.data?.rows}
        total={doctors.data?.total}
        columns={columns}
        phoneColumns={['UserName', 'IsActive', 'actions']}
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
