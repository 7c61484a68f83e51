import {
  defaultLabSettings,
  labSettings,
  type Courier,
  type LabSettings,
  type PlanStepLimits,
  type TurnaroundTargets,
} from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { labSettingsTable, users } from '../db/schema.ts';

/**
 * The lab's settings (docs/decisions/settings.md): one row, read here on each use so that every
 * process follows a change at once; a setting the row does not hold yet (one added after it was
 * written) takes its default.
 */
export async function readLabSettings(db: Pick<Database, 'select'>): Promise<LabSettings> {
  const [row] = await db.select({ settings: labSettingsTable.settings }).from(labSettingsTable);
  return labSettings.parse({ ...defaultLabSettings, ...row?.settings });
}

/** The lab's limit on one tooth's move in one stage: the one place the movement table and the plan's findings take it from. */
export async function planStepLimits(db: Database): Promise<PlanStepLimits> {
  return (await readLabSettings(db)).planStepLimits;
}

export async function turnaroundTargets(db: Database): Promise<TurnaroundTargets> {
  return (await readLabSettings(db)).turnaroundDays;
}

export async function labCouriers(db: Database): Promise<Courier[]> {
  return (await readLabSettings(db)).couriers;
}

/** The first start's settings (from the environment); a database that has its row keeps it. */
export async function seedLabSettings(db: Database, initial: LabSettings): Promise<void> {
  await db
    .insert(labSettingsTable)
    .values({ id: 1, settings: labSettings.parse(initial) })
    .onConflictDoNothing();
}

/** JSON with each object's keys in order, so that the same settings compare equal whatever order they came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

export type SettingChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * Replaces the settings and returns them with what changed, each setting's before and after (the
 * audit row keeps them). The row is locked while it is read and written: two saves at once each
 * see the other's result as their before.
 */
export async function saveLabSettings(
  db: Database,
  next: LabSettings,
  userId: number,
): Promise<{ settings: LabSettings; changes: SettingChanges }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ settings: labSettingsTable.settings })
      .from(labSettingsTable)
      .where(eq(labSettingsTable.id, 1))
      .for('update');
    const before = labSettings.parse({ ...defaultLabSettings, ...row?.settings });
    await tx
      .insert(labSettingsTable)
      .values({ id: 1, settings: next, updatedBy: userId })
      .onConflictDoUpdate({
        target: labSettingsTable.id,
        set: { settings: next, updatedBy: userId, updatedAt: new Date() },
      });
    const changes: SettingChanges = {};
    for (const key of Object.keys(next) as (keyof LabSettings)[]) {
      if (canonical(before[key]) !== canonical(next[key])) changes[key] = { before: before[key], after: next[key] };
    }
    return { settings: next, changes };
  });
}

/** The user's own time zone, or null when they have chosen none yet. */
export async function readUserTimeZone(db: Database, userId: number): Promise<string | null> {
  const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.userId, userId));
  return row?.timeZone ?? null;
}

export async function saveUserTimeZone(db: Database, userId: number, timeZone: string): Promise<void> {
  await db.update(users).set({ timeZone }).where(eq(users.userId, userId));
}
