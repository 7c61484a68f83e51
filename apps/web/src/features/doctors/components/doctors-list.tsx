import type { Doctor } from '@portal/contract';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { LocalTable, serialNumberColumn } from '../../../components/data-table.tsx';
import type { TableColumn } from '../../../components/table-column.ts';
import { RowActions } from '../../../components/row-actions.tsx';
import { errorMessage, fallbackMessages, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteDoctor } from '../api/delete-doctor.ts';
import { useDoctors } from '../api/get-doctors.ts';

const searchKeys: (keyof Doctor & string)[] = ['UserName', 'FirstName', 'LastName', 'Email', 'MobileNo'];

/** The doctors table: search over names, e-mail and mobile; Status; Edit and Delete. */
export function DoctorsList({ onEdit }: { onEdit: (doctor: Doctor) => void }) {
  const doctors = useDoctors();
  const deleteDoctor = useDeleteDoctor();

  const remove = async (doctor: Doctor) => {
    if (!(await confirmDelete())) return;
    try {
      const answer = await deleteDoctor.mutateAsync(doctor.DoctorId);
      notifySuccess(answer.message || fallbackMessages.deleted);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.deleteFailed));
    }
  };

  const columns: TableColumn<Doctor>[] = [
    serialNumberColumn<Doctor>(doctors.data),
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
    <LocalTable<Doctor>
      records={doctors.data}
      columns={columns}
      phoneColumns={['UserName', 'IsActive', 'actions']}
      idAccessor="DoctorId"
      isLoading={doctors.isLoading}
      searchKeys={searchKeys}
      searchLabel="Search doctors"
    />
  );
}
