import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import type { Doctor } from '@portal/contract';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { PageTitle } from '../../../components/page-title.tsx';
import { fallbackMessages, notifySuccess } from '../../../lib/notify.ts';
import { DoctorForm } from './doctor-form.tsx';
import { DoctorsList } from './doctors-list.tsx';
import { EditDoctorForm } from './edit-doctor-form.tsx';
import { PendingDoctors } from './pending-doctors.tsx';

/** null: the list; 'new': the empty form; a doctor: that doctor's form. */
type View = null | 'new' | Doctor;

/** Doctor management: the list and the form switch in place. */
export function DoctorsScreen() {
  const { t } = useLingui();
  const [view, setView] = useState<View>(null);
  const backToList = () => setView(null);
  const saved = (fallback: string) => (message: string) => {
    notifySuccess(message || fallback);
    backToList();
  };

  if (view === null) {
    return (
      <>
        <PageTitle
          title={t`Doctors`}
          actions={
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setView('new')}>
              <Trans>Add New</Trans>
            </Button>
          }
        />
        <PendingDoctors />
        <DoctorsList onEdit={setView} />
      </>
    );
  }
  return (
    <>
      <PageTitle title={view === 'new' ? t`Add Doctor` : t`Edit Doctor`} />
      {view === 'new' ? (
        <DoctorForm mode="staff" onSaved={saved(fallbackMessages.saved)} onCancel={backToList} />
      ) : (
        <EditDoctorForm mode="staff" doctor={view} onSaved={saved(fallbackMessages.updated)} onCancel={backToList} />
      )}
    </>
  );
}
