import { doctorPreferencesAnswer, type DoctorPreferences } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { doctorPreferences } from '../db/schema.ts';

/** A doctor's saved choices; an empty object before the first save. */
export async function getDoctorPreferences(db: Database, doctorUserId: number): Promise<DoctorPreferences> {
  const [saved] = await db
    .select({ preferences: doctorPreferences.preferences })
    .from(doctorPreferences)
    .where(eq(doctorPreferences.userId, doctorUserId));
  // Keys a later version no longer keeps are dropped rather than answered.
  return saved ? doctorPreferencesAnswer.parse(saved.preferences) : {};
}

/** Replaces a doctor's saved choices with these (already checked by the contract's schema). */
export async function saveDoctorPreferences(
  db: Database,
  doctorUserId: number,
  preferences: DoctorPreferences,
): Promise<void> {
  const kept = Object.fromEntries(Object.entries(preferences).filter(([, value]) => value !== undefined));
  await db
    .insert(doctorPreferences)
    .values({ userId: doctorUserId, preferences: kept })
    .onConflictDoUpdate({
      target: doctorPreferences.userId,
      set: { preferences: kept, updatedAt: new Date() },
    });
}
