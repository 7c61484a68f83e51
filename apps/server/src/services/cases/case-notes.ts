import { caseWorkMessages, maxNotesPerCase, type CaseNote, type CaseNoteRequest } from '@portal/contract';
import { asc, count, eq } from 'drizzle-orm';
import type { SignedInUser } from '../../auth/policy.ts';
import type { Database } from '../../db/client.ts';
import { isoTimestamp } from '../../db/iso-timestamp.ts';
import { caseNotes, cases, users } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import type { VisibleCase } from './case-access.ts';
import { fullNameOf } from '../../db/user-names.ts';

/**
 * The lab's internal notes on a case (docs/decisions/cases.md § Assignment and internal notes).
 * Only the `caseStaff` routes read them: no doctor's answer, event, e-mail, PDF or export
 * selects from case_notes.
 */

const noteColumns = {
  noteId: caseNotes.noteId,
  text: caseNotes.text,
  authorId: caseNotes.authorId,
  authorName: fullNameOf(),
  createdAt: isoTimestamp(caseNotes.createdAt),
};

export function listCaseNotes(db: Database, found: VisibleCase): Promise<CaseNote[]> {
  return db
    .select(noteColumns)
    .from(caseNotes)
    .innerJoin(users, eq(users.userId, caseNotes.authorId))
    .where(eq(caseNotes.caseId, found.caseId))
    .orderBy(asc(caseNotes.noteId));
}

/** Adds a note; a case holds at most `maxNotesPerCase` (409 past them, nothing stored). */
export async function addCaseNote(
  db: Database,
  actor: SignedInUser,
  found: VisibleCase,
  input: CaseNoteRequest,
): Promise<CaseNote> {
  const noteId = await db.transaction(async (tx) => {
    // Locks the case: two notes at once cannot both pass the count.
    await tx.select({ caseId: cases.caseId }).from(cases).where(eq(cases.caseId, found.caseId)).for('update');
    const [counted] = await tx.select({ notes: count() }).from(caseNotes).where(eq(caseNotes.caseId, found.caseId));
    if ((counted?.notes ?? 0) >= maxNotesPerCase) throw conflict(caseWorkMessages.notesFull);
    const [row] = await tx
      .insert(caseNotes)
      .values({ caseId: found.caseId, authorId: actor.userId, text: input.text })
      .returning({ noteId: caseNotes.noteId });
    return row!.noteId;
  });
  const [note] = await db
    .select(noteColumns)
    .from(caseNotes)
    .innerJoin(users, eq(users.userId, caseNotes.authorId))
    .where(eq(caseNotes.noteId, noteId));
  return note!;
}
