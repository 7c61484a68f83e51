import type { CaseDetail } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { cities, clinics, countries, users } from '../../db/schema.ts';
import type { VisibleCase } from '../cases/case-access.ts';
import { getCase, listCaseAttachments, type CaseAttachmentRow } from '../cases/read-case.ts';

/** Everything the printed prescription shows. */
export interface Prescription {
  caseRow: CaseDetail;
  doctor: { name: string; email: string; mobileNo: string };
  clinic: { name: string; address: string; city: string; country: string; contactNo: string } | null;
  attachments: CaseAttachmentRow[];
  printedAt: Date;
}

/** The case the caller may read (routes/records.ts), with its doctor, clinic and files. */
export async function findPrescription(db: Database, actor: SignedInUser, found: VisibleCase): Promise<Prescription> {
  const caseRow = await getCase(db, actor, found);
  const [[doctor], [clinic], attachments] = await Promise.all([
    db
      .select({ email: users.email, mobileNo: users.mobileNo })
      .from(users)
      .where(eq(users.userId, caseRow.DoctorUserId)),
    db
      .select({
        name: clinics.clinicName,
        address: clinics.address,
        city: cities.cityName,
        country: countries.countryName,
        contactNo: clinics.contactNo,
      })
      .from(clinics)
      .innerJoin(cities, eq(cities.cityId, clinics.cityId))
      .innerJoin(countries, eq(countries.countryId, clinics.countryId))
      .where(eq(clinics.clinicId, caseRow.ClinicId)),
    listCaseAttachments(db, found),
  ]);
  return {
    caseRow,
    doctor: { name: caseRow.doctorname, email: doctor?.email ?? '', mobileNo: doctor?.mobileNo ?? '' },
    clinic: clinic ?? null,
    attachments,
    printedAt: new Date(),
  };
}
