import type { Clinic, ClinicEntry, ClinicOption } from '@portal/contract';
import { and, asc, eq, inArray, isNull, notInArray, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cities, clinics, doctors, users } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import type { Transaction } from '../db/client.ts';

/** The doctor's id when the doctor exists and is not deleted; 404 otherwise. */
async function findLiveDoctorId(db: Database, where: SQL): Promise<number> {
  const [row] = await db
    .select({ doctorId: doctors.doctorId })
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(where, isNull(users.deletedAt)));
  if (!row) throw notFound('Doctor');
  return row.doctorId;
}

export async function listClinicsOfDoctor(db: Database, doctorId: number): Promise<Clinic[]> {
  await findLiveDoctorId(db, eq(doctors.doctorId, doctorId));
  return db
    .select({
      ClinicId: clinics.clinicId,
      CountryId: clinics.countryId,
      CityId: clinics.cityId,
      ClinicName: clinics.clinicName,
      ContactNo: clinics.contactNo,
      Address: clinics.address,
    })
    .from(clinics)
    .where(and(eq(clinics.doctorId, doctorId), isNull(clinics.deletedAt)))
    .orderBy(asc(clinics.clinicId));
}

export async function listClinicsOfUser(db: Database, userId: number): Promise<ClinicOption[]> {
  const doctorId = await findLiveDoctorId(db, eq(doctors.userId, userId));
  return db
    .select({ ClinicId: clinics.clinicId, ClinicName: clinics.clinicName })
    .from(clinics)
    .where(and(eq(clinics.doctorId, doctorId), isNull(clinics.deletedAt)))
    .orderBy(asc(clinics.clinicId));
}

/** Every city must lie in the country given with it. */
async function assertCitiesMatch(tx: Transaction, entries: ClinicEntry[]) {
  const cityIds = [...new Set(entries.map((entry) => entry.cityId))];
  const found = await tx
    .select({ cityId: cities.cityId, countryId: cities.countryId })
    .from(cities)
    .where(inArray(cities.cityId, cityIds));
  const countryOf = new Map(found.map((row) => [row.cityId, row.countryId]));
  entries.forEach((entry, index) => {
    if (countryOf.get(entry.cityId) !== entry.countryId) {
      throw badRequest('City is not valid', { [`clinicList.${index}.cityId`]: 'City is not valid' });
    }
  });
}

/**
 * Makes the doctor's clinics match the list: clinicId 0 adds, a known id updates, and a
 * clinic left out is hidden (cases keep pointing at it).
 */
export async function replaceClinics(tx: Transaction, doctorId: number, entries: ClinicEntry[]): Promise<void> {
  await assertCitiesMatch(tx, entries);
  const existing = await tx
    .select({ clinicId: clinics.clinicId })
    .from(clinics)
    .where(and(eq(clinics.doctorId, doctorId), isNull(clinics.deletedAt)));
  const owned = new Set(existing.map((row) => row.clinicId));
  const kept: number[] = [];
  for (const [index, entry] of entries.entries()) {
    const values = {
      clinicName: entry.clinicName,
      countryId: entry.countryId,
      cityId: entry.cityId,
      contactNo: entry.contactNo,
      address: entry.address,
    };
    if (entry.clinicId === 0) {
      const [added] = await tx
        .insert(clinics)
        .values({ ...values, doctorId })
        .returning({ clinicId: clinics.clinicId });
      kept.push(added!.clinicId);
    } else if (owned.has(entry.clinicId)) {
      await tx.update(clinics).set(values).where(eq(clinics.clinicId, entry.clinicId));
      kept.push(entry.clinicId);
    } else {
      throw badRequest('Clinic is not valid', { [`clinicList.${index}.clinicId`]: 'Clinic is not valid' });
    }
  }
  await tx
    .update(clinics)
    .set({ deletedAt: new Date() })
    .where(and(eq(clinics.doctorId, doctorId), isNull(clinics.deletedAt), notInArray(clinics.clinicId, kept)));
}
