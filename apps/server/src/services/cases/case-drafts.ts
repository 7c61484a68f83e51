import {
  caseDraftMessages,
  maxDraftsPerUser,
  type CaseDraft,
  type CaseDraftFields,
  type CaseDraftFiles,
  type CaseDraftInput,
  type CaseDraftSummary,
} from '@portal/contract';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { isAssistant, isDoctor, servesDoctor, type SignedInUser } from '../../auth/policy.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { caseDrafts, doctors, users } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { claimUploadsForDraft, draftUploadIds, draftUploads } from '../uploads/uploads.ts';

type DraftInput = CaseDraftInput;

/** Blank values are "not filled in yet": only what was typed is kept. */
const keptValues = <T extends Record<string, unknown>>(values: T | undefined) =>
  Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined && value !== '')) as T;

/**
 * The doctor a draft is for: a doctor's own drafts are theirs; an assistant names one of
 * their doctors (or none yet, unless they serve one alone); staff name one (or none yet),
 * who must be a doctor.
 */
async function draftDoctor(tx: Transaction, actor: SignedInUser, requested: number | null | undefined) {
  if (isDoctor(actor)) return actor.userId;
  if (isAssistant(actor)) {
    if (!requested) return actor.servedDoctors.length === 1 ? actor.servedDoctors[0]!.userId : null;
    if (!servesDoctor(actor, requested))
      throw badRequest('Doctor is not valid', { doctorUserId: 'Doctor is not valid' });
    return requested;
  }
  if (!requested) return null;
  const [doctor] = await tx
    .select({ userId: doctors.userId })
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(eq(doctors.userId, requested), isNull(users.deletedAt)));
  if (!doctor) throw badRequest('Doctor is not valid', { doctorUserId: 'Doctor is not valid' });
  return requested;
}

function rowValues(input: DraftInput) {
  return { fields: keptValues(input.fields), files: keptValues<CaseDraftFiles>(input.files), step: input.step ?? 0 };
}

/**
 * Links the uploads a draft names to it (docs/decisions/case-form.md § Drafts) and keeps in its
 * `files` only those that are its owner's own and not used by a case.
 */
async function keepDraftUploads(tx: Transaction, actor: SignedInUser, draftId: number, files: CaseDraftFiles) {
  const kept = await claimUploadsForDraft(tx, { userId: actor.userId, draftId }, draftUploadIds(files));
  const keptFiles = Object.fromEntries(
    Object.entries(files).flatMap(([field, ids]) => {
      const own = [ids ?? []].flat().filter((id) => kept.has(id));
      if (own.length === 0) return [];
      return [[field, Array.isArray(ids) ? own : own[0]!]];
    }),
  );
  if (JSON.stringify(keptFiles) !== JSON.stringify(files)) {
    await tx.update(caseDrafts).set({ files: keptFiles }).where(eq(caseDrafts.draftId, draftId));
  }
}

const savedAnswer = (row: { draftId: number; updatedAt: Date }) => ({
  draftId: row.draftId,
  updatedAt: row.updatedAt.toISOString(),
});

/** A new draft of `actor`'s; past the per-user cap it is refused with 409. */
export async function createDraft(db: Database, actor: SignedInUser, input: DraftInput) {
  return db.transaction(async (tx) => {
    // One writer at a time per owner, so two tabs cannot both pass the cap.
    await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, actor.userId)).for('update');
    const [held] = await tx.select({ n: count() }).from(caseDrafts).where(eq(caseDrafts.ownerUserId, actor.userId));
    if ((held?.n ?? 0) >= maxDraftsPerUser) throw conflict(caseDraftMessages.tooMany);
    const doctorUserId = await draftDoctor(tx, actor, input.doctorUserId);
    const [created] = await tx
      .insert(caseDrafts)
      .values({ ownerUserId: actor.userId, doctorUserId, ...rowValues(input) })
      .returning({ draftId: caseDrafts.draftId, updatedAt: caseDrafts.updatedAt });
    await keepDraftUploads(tx, actor, created!.draftId, rowValues(input).files);
    return savedAnswer(created!);
  });
}

const ownDraft = (actor: SignedInUser, draftId: number) =>
  and(eq(caseDrafts.draftId, draftId), eq(caseDrafts.ownerUserId, actor.userId));

/** Replaces an own draft's fields, files and step; anyone else's draft is "not found". */
export async function saveDraft(db: Database, actor: SignedInUser, draftId: number, input: DraftInput) {
  return db.transaction(async (tx) => {
    const doctorUserId = await draftDoctor(tx, actor, input.doctorUserId);
    const [saved] = await tx
      .update(caseDrafts)
      .set({ doctorUserId, ...rowValues(input), updatedAt: new Date() })
      .where(ownDraft(actor, draftId))
      .returning({ draftId: caseDrafts.draftId, updatedAt: caseDrafts.updatedAt });
    if (!saved) throw notFound('Draft');
    await keepDraftUploads(tx, actor, draftId, rowValues(input).files);
    return savedAnswer(saved);
  });
}

const patientName = (fields: CaseDraftFields) =>
  [fields.firstname, fields.lastname].filter((part) => part?.trim()).join(' ');

function toSummary(row: typeof caseDrafts.$inferSelect): CaseDraftSummary {
  return {
    draftId: row.draftId,
    patientName: patientName(row.fields as CaseDraftFields),
    doctorUserId: row.doctorUserId,
    step: row.step,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The caller's own drafts, the most recently saved first. */
export async function listDrafts(db: Database, actor: SignedInUser): Promise<CaseDraftSummary[]> {
  const rows = await db
    .select()
    .from(caseDrafts)
    .where(eq(caseDrafts.ownerUserId, actor.userId))
    .orderBy(desc(caseDrafts.updatedAt), desc(caseDrafts.draftId));
  return rows.map(toSummary);
}

export async function getDraft(db: Database, actor: SignedInUser, draftId: number): Promise<CaseDraft> {
  const [row] = await db.select().from(caseDrafts).where(ownDraft(actor, draftId));
  if (!row) throw notFound('Draft');
  const files = row.files as CaseDraft['files'];
  const uploads = await draftUploads(db, actor.userId, draftUploadIds(files));
  return { ...toSummary(row), fields: row.fields as Record<string, string>, files, uploads };
}

/**
 * Deletes an own draft, in `tx` when a submission removes the draft it was written in. Its
 * uploads a case did not take are let go: they expire like any unused upload.
 */
export async function deleteDraft(db: Database | Transaction, actor: SignedInUser, draftId: number): Promise<void> {
  // A savepoint when `db` is the submission's transaction.
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(caseDrafts)
      .where(ownDraft(actor, draftId))
      .returning({ draftId: caseDrafts.draftId });
    if (deleted.length === 0) throw notFound('Draft');
    await claimUploadsForDraft(tx, { userId: actor.userId, draftId }, []);
  });
}
