import { defaultToothNotation, type ToothNotation } from '@portal/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { clinics, countries, doctorAssistants, doctors, users } from '../db/schema.ts';

/**
 * The ISO code of the country that sets a user's default notation (docs/decisions/tooth-notation.md):
 * a doctor's first live clinic's (else the doctor's own country), an assistant's first doctor's;
 * staff have none (the lab's settings hold no country), so FDI.
 */
async function defaultCountryOf(db: Database, userId: number): Promise<string | null> {
  const [assisted] = await db
    .select({ doctorUserId: doctorAssistants.doctorUserId })
    .from(doctorAssistants)
    .innerJoin(users, eq(users.userId, userId))
    .where(
      and(
        eq(doctorAssistants.assistantUserId, userId),
        isNull(doctorAssistants.revokedAt),
        eq(users.userType, 'Assistant'),
      ),
    )
    .orderBy(asc(doctorAssistants.createdAt), asc(doctorAssistants.doctorUserId))
    .limit(1);
  const doctorUserId = assisted?.doctorUserId ?? userId;
  const [clinic] = await db
    .select({ isoCode: countries.isoCode })
    .from(doctors)
    .innerJoin(clinics, and(eq(clinics.doctorId, doctors.doctorId), isNull(clinics.deletedAt)))
    .innerJoin(countries, eq(countries.countryId, clinics.countryId))
    .where(eq(doctors.userId, doctorUserId))
    .orderBy(asc(clinics.clinicId))
    .limit(1);
  if (clinic) return clinic.isoCode;
  const [doctor] = await db
    .select({ isoCode: countries.isoCode })
    .from(doctors)
    .innerJoin(countries, eq(countries.countryId, doctors.countryId))
    .where(eq(doctors.userId, doctorUserId));
  return doctor?.isoCode ?? null;
}

/** The user's tooth notation: as chosen, else the default by their clinic's country. */
export async function readUserToothNotation(db: Database, userId: number): Promise<ToothNotation> {
  const [row] = await db.select({ toothNotation: users.toothNotation }).from(users).where(eq(users.userId, userId));
  return row?.toothNotation ?? defaultToothNotation(await defaultCountryOf(db, userId));
}

/** Sets the user's notation; answers it as stored and what was stored before (null: not chosen), for the audit row. */
export async function saveUserToothNotation(
  db: Database,
  userId: number,
  toothNotation: ToothNotation,
): Promise<{ before: ToothNotation | null; after: ToothNotation }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ toothNotation: users.toothNotation })
      .from(users)
      .where(eq(users.userId, userId))
      .for('update');
    const [saved] = await tx
      .update(users)
      .set({ toothNotation })
      .where(eq(users.userId, userId))
      .returning({ toothNotation: users.toothNotation });
    return { before: row?.toothNotation ?? null, after: saved?.toothNotation ?? toothNotation };
  });
}
