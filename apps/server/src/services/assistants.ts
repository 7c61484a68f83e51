import { randomBytes } from 'node:crypto';
import {
  assistantInvitationsPerDay,
  assistantInvitePauseMinutes,
  assistantMessages,
  DOCTOR_ROLE_ID,
  maxAssistantsPerDoctor,
  type AssistantInviteRequest,
  type AssistantRow,
  type ServedDoctorRow,
} from '@portal/contract';
import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { SignedInUser } from '../auth/policy.ts';
import type { Database, Transaction } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { assistantInvitations, doctorAssistants, doctors, passwordResetTokens, users } from '../db/schema.ts';
import { conflict, notFound, tooManyRequests } from '../lib/errors.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { findUsernameOwner, personName } from './accounts.ts';
import { createResetLink, linkLifetimeWords } from './password-reset.ts';
import { fullNameOf } from '../db/user-names.ts';

/**
 * A doctor's assistants (docs/decisions/assistants.md § Assistants): the doctor invites them by e-mail,
 * lists and revokes them; what an assistant reaches is read from the live links on each
 * request (plugins/auth.ts), so nothing here has to end a session.
 */

interface InviteDeps {
  db: Database;
  outbox: MailOutbox;
  passwords: PasswordHasher;
  publicUrl: string;
}

const live = (doctorUserId: number) =>
  and(eq(doctorAssistants.doctorUserId, doctorUserId), isNull(doctorAssistants.revokedAt));

/** The live accounts with this e-mail, whatever its letter case. */
function accountsWithEmail(tx: Transaction, email: string) {
  return tx
    .select({ userId: users.userId, userType: users.userType, isActive: users.isActive })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt)));
}

/**
 * A new assistant gets an account whose password nobody knows and a link to set one, as an
 * activated doctor does; an existing assistant is linked and told. An address a doctor or
 * staff account uses cannot be an assistant's (one person, one kind of account).
 */
export async function inviteAssistant(
  deps: InviteDeps,
  doctor: SignedInUser,
  input: AssistantInviteRequest,
): Promise<{ assistantUserId: number; message: string }> {
  // The hash first, outside the transaction: argon2 should not hold the doctor's lock.
  const unknownPasswordHash = await deps.passwords.hash(randomBytes(32).toString('base64url'));
  const result = await deps.db.transaction(async (tx) => {
    // Locked: two invitations at once must not pass the bound together.
    await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, doctor.userId)).for('update');
    const owners = await accountsWithEmail(tx, input.email);
    if (owners.some((owner) => owner.userType !== 'Assistant' || !owner.isActive)) {
      throw conflict(assistantMessages.notAssistantEmail, { email: assistantMessages.notAssistantEmail });
    }
    let assistantUserId = owners[0]?.userId;
    // Invited again while the link is live and no password was set: a new link (the first one
    // lasts an hour), as the list's Send again does.
    let isResent = false;
    if (assistantUserId !== undefined) {
      const [link] = await tx
        .select({
          revokedAt: doctorAssistants.revokedAt,
          // Seconds until the pause since the last invitation ends: positive while it lasts.
          pauseLeft: sql<number>`ceil(extract(epoch from ${doctorAssistants.createdAt} + make_interval(mins => ${assistantInvitePauseMinutes}) - now()))::int`,
        })
        .from(doctorAssistants)
        .where(
          and(eq(doctorAssistants.doctorUserId, doctor.userId), eq(doctorAssistants.assistantUserId, assistantUserId)),
        );
      if (link && link.revokedAt === null) {
        if (await hasSetPassword(tx, assistantUserId)) {
          return { assistantUserId, message: assistantMessages.alreadyLinked };
        }
        isResent = true;
      }
      // One mail per pause from a doctor to an assistant, so neither Send again nor revoking
      // and inviting again can flood an inbox.
      if (link && link.pauseLeft > 0) throw tooManyRequests(assistantMessages.tooSoon, link.pauseLeft);
    }
    const [held] = await tx.select({ n: count() }).from(doctorAssistants).where(live(doctor.userId));
    if (!isResent && (held?.n ?? 0) >= maxAssistantsPerDoctor) throw conflict(assistantMessages.tooMany);
    await refusePastDailyBound(tx, doctor.userId);
    const isNew = assistantUserId === undefined;
    if (assistantUserId === undefined) {
      // The e-mail is the username: an assistant signs in with the address they were invited at.
      if (await findUsernameOwner(tx, input.email)) {
        throw conflict(assistantMessages.notAssistantEmail, { email: assistantMessages.notAssistantEmail });
      }
      const [created] = await tx
        .insert(users)
        .values({
          userName: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          roleId: DOCTOR_ROLE_ID,
          userType: 'Assistant',
          passwordHash: unknownPasswordHash,
        })
        .returning({ userId: users.userId });
      assistantUserId = created!.userId;
    }
    await tx
      .insert(doctorAssistants)
      .values({ doctorUserId: doctor.userId, assistantUserId })
      .onConflictDoUpdate({
        target: [doctorAssistants.doctorUserId, doctorAssistants.assistantUserId],
        set: { revokedAt: null, createdAt: sql`now()` },
      });
    const [doctorName] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.userId, doctor.userId));
    const [assistant] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.userId, assistantUserId));
    // Until the account has a password the link is an invitation, good for days; an assistant
    // who already has one gets an ordinary hour-long reset link (docs/decisions/accounts.md § Invitation links).
    const isInvitation = !(await hasSetPassword(tx, assistantUserId));
    const resetUrl = await createResetLink(
      tx,
      assistantUserId,
      deps.publicUrl,
      isInvitation ? { invitedBy: doctor.userId } : undefined,
    );
    await deps.outbox.enqueue(tx, {
      to: assistant!.email,
      template: 'assistantInvitation',
      variables: {
        name: personName(assistant!),
        doctorName: personName(doctorName!),
        resetUrl,
        validFor: linkLifetimeWords[isInvitation ? 'invitation' : 'reset'],
      },
    });
    await tx.insert(assistantInvitations).values({ doctorUserId: doctor.userId, assistantUserId });
    const message = isNew ? assistantMessages.invited : isResent ? assistantMessages.resent : assistantMessages.linked;
    return { assistantUserId, message };
  });
  deps.outbox.kick();
  return result;
}

/**
 * 429 once the doctor has sent `assistantInvitationsPerDay` invitations in the last 24 hours
 * (revoked and renewed ones too), saying when the oldest of them leaves the count. Called
 * with the doctor's row locked, so two invitations at once cannot both pass the last place.
 */
async function refusePastDailyBound(tx: Transaction, doctorUserId: number): Promise<void> {
  const [sent] = await tx
    .select({
      n: count(),
      freeAt: sql<
        string | null
      >`to_char((min(${assistantInvitations.sentAt}) + interval '24 hours 1 minute') at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')`,
      waitSeconds: sql<number>`ceil(extract(epoch from min(${assistantInvitations.sentAt}) + interval '24 hours' - now()))::int`,
    })
    .from(assistantInvitations)
    .where(
      and(
        eq(assistantInvitations.doctorUserId, doctorUserId),
        sql`${assistantInvitations.sentAt} > now() - interval '24 hours'`,
      ),
    );
  if (sent && sent.n >= assistantInvitationsPerDay) {
    throw tooManyRequests(assistantMessages.tooManyToday(sent.freeAt!), Math.max(1, sent.waitSeconds));
  }
}

/** A used link: the account starts with a password nobody knows, so a used link is the only way in. */
const usedLinkOf = (userId: number | SQLWrapper) =>
  and(eq(passwordResetTokens.userId, userId), isNotNull(passwordResetTokens.usedAt));

async function hasSetPassword(tx: Transaction, userId: number): Promise<boolean> {
  const [used] = await tx
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(usedLinkOf(userId))
    .limit(1);
  return used !== undefined;
}

/** The doctor's live assistants, in name order, each with whether they have set their password yet. */
export function listAssistants(db: Database, doctorUserId: number): Promise<AssistantRow[]> {
  return db
    .select({
      userId: users.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      invitedAt: isoTimestamp(doctorAssistants.createdAt),
      state: sql<AssistantRow['state']>`case when exists (
        select 1 from ${passwordResetTokens} where ${usedLinkOf(users.userId)}
      ) then 'active' else 'invited' end`,
    })
    .from(doctorAssistants)
    .innerJoin(users, eq(users.userId, doctorAssistants.assistantUserId))
    .where(and(live(doctorUserId), isNull(users.deletedAt)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.userId));
}

/** One of the doctor's live assistants, or 404 as if it did not exist. */
export async function findOwnAssistant(
  db: Database,
  doctorUserId: number,
  assistantUserId: number,
): Promise<{ assistantUserId: number }> {
  const [found] = await db
    .select({ assistantUserId: doctorAssistants.assistantUserId })
    .from(doctorAssistants)
    .where(and(live(doctorUserId), eq(doctorAssistants.assistantUserId, assistantUserId)));
  if (!found) throw notFound('Assistant');
  return found;
}

/** Ends the link; the assistant's next request reaches none of this doctor's cases. */
export async function revokeAssistant(db: Database, doctorUserId: number, assistantUserId: number): Promise<void> {
  await db
    .update(doctorAssistants)
    .set({ revokedAt: sql`now()` })
    .where(and(live(doctorUserId), eq(doctorAssistants.assistantUserId, assistantUserId)));
}

/** The doctors an assistant works for now, in name order (from the caller's reach, read with the session). */
export async function listServedDoctors(db: Database, assistant: SignedInUser): Promise<ServedDoctorRow[]> {
  const ids = assistant.servedDoctors.map((doctor) => doctor.userId);
  if (ids.length === 0) return [];
  return db
    .select({
      userId: users.userId,
      doctorId: doctors.doctorId,
      name: fullNameOf(),
    })
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(inArray(users.userId, ids))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.userId));
}
