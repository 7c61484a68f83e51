import {
  ADMIN_ROLE_ID,
  DOCTOR_ROLE_ID,
  type Doctor,
  type DoctorAddRequest,
  type DoctorEditRequest,
} from '@portal/contract';
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { assertOwnRecordIfDoctor, isDoctor, type SignedInUser } from '../auth/policy.ts';
import { hashNewPassword } from '../auth/passwords.ts';
import type { Database, Transaction } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { countries, doctors, liveRoleId, users } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import type { SmallFile } from '../lib/multipart-form.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { deleteKeys } from '../storage/delete-keys.ts';
import type { Storage } from '../storage/storage.ts';
import {
  assertUsernameFree,
  checkOwnAccountChange,
  enqueueOwnChangeNotice,
  inAccountTransaction,
  replacePicture,
} from './accounts.ts';
import { replaceClinics } from './clinics.ts';
import { createResetLink } from './password-reset.ts';
import { assertPictureSize } from './profile-pictures.ts';
import { roleExists } from './roles.ts';

const doctorColumns = {
  UserId: users.userId,
  DoctorId: doctors.doctorId,
  UserName: users.userName,
  RoleId: liveRoleId,
  FirstName: users.firstName,
  LastName: users.lastName,
  Email: users.email,
  MobileNo: users.mobileNo,
  profilePicKey: users.profilePic,
  Profession: doctors.profession,
  ProfessionalSpecialization: doctors.professionalSpecialization,
  AcademicTitle: doctors.academicTitle,
  Message: doctors.message,
  IsActive: users.isActive,
  CountryId: doctors.countryId,
  Gender: doctors.gender,
  createdAt: isoTimestamp(users.createdAt),
  userType: users.userType,
};

function selectDoctors(db: Database | Transaction, where?: SQL) {
  return db
    .select(doctorColumns)
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(isNull(users.deletedAt), where))
    .orderBy(asc(doctors.doctorId));
}

/** A doctor as listed, with the picture's storage key where the answer has its address. */
export type DoctorRow = Omit<Doctor, 'ProfilePic'> & { profilePicKey: string | null };

export const listDoctors = (db: Database): Promise<DoctorRow[]> => selectDoctors(db);

/** A doctor by UserId; doctors may only read their own record. */
export async function getDoctorByUserId(db: Database, actor: SignedInUser, userId: number): Promise<DoctorRow[]> {
  assertOwnRecordIfDoctor(actor, { userId });
  const rows = await selectDoctors(db, eq(users.userId, userId));
  if (rows.length === 0) throw notFound('Doctor');
  return rows;
}

async function assertCountry(tx: Transaction, countryId: number) {
  const [row] = await tx
    .select({ countryId: countries.countryId })
    .from(countries)
    .where(eq(countries.countryId, countryId));
  if (!row) throw badRequest('Location is not valid', { countryId: 'Location is not valid' });
}

async function assertDoctorRole(tx: Transaction, roleId: number) {
  if (roleId === ADMIN_ROLE_ID || !(await roleExists(tx, roleId))) {
    throw badRequest('Role is not valid', { roleId: 'Role is not valid' });
  }
}

const doctorValues = (input: DoctorAddRequest | DoctorEditRequest) => ({
  countryId: input.countryId,
  gender: input.gender,
  profession: input.profession,
  professionalSpecialization: input.professionSpecialization,
  academicTitle: input.academicTitle,
  message: input.description,
});

/**
 * Self-registration (anonymous) and doctors added by staff. Only staff allowed on the
 * Doctors page choose the role and status; everyone else gets role 19, inactive.
 */
export async function createDoctor(
  db: Database,
  storage: Storage,
  canManageDoctors: boolean,
  input: DoctorAddRequest,
  picture?: SmallFile,
): Promise<number> {
  const roleId = canManageDoctors ? input.roleId : DOCTOR_ROLE_ID;
  const isActive = canManageDoctors ? input.isActive : false;
  // The cheap refusals first: the argon2 hash and the picture's decoding cost CPU.
  await assertUsernameFree(db, input.username);
  if (picture) await assertPictureSize(picture);
  const passwordHash = await hashNewPassword(input.password);
  const { result } = await inAccountTransaction(db, storage, async (tx, written) => {
    await assertDoctorRole(tx, roleId);
    await assertCountry(tx, input.countryId);
    const [user] = await tx
      .insert(users)
      .values({
        userName: input.username,
        firstName: input.firstname,
        lastName: input.lastname,
        email: input.email,
        mobileNo: input.mobileNo,
        roleId,
        userType: 'Doctor',
        passwordHash,
        isActive,
      })
      .returning({ userId: users.userId });
    const [doctor] = await tx
      .insert(doctors)
      .values({ userId: user!.userId, ...doctorValues(input) })
      .returning({ doctorId: doctors.doctorId });
    await replaceClinics(tx, doctor!.doctorId, input.clinicList);
    await replacePicture(tx, storage, user!.userId, { picture }, written);
    return doctor!.doctorId;
  });
  return result;
}

/** A live doctor's account; `forUpdate` locks it until the transaction ends. */
async function findDoctor(tx: Transaction | Database, doctorId: number, forUpdate = false) {
  const query = tx
    .select({ userId: users.userId, isActive: users.isActive, roleId: liveRoleId, userName: users.userName })
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(eq(doctors.doctorId, doctorId), isNull(users.deletedAt)));
  const [row] = forUpdate ? await query.for('update', { of: users }) : await query;
  return row;
}

/**
 * Staff edit every field. A doctor editing their own profile keeps their username, role
 * and status whatever they send. Going from inactive to active queues the activation
 * mail with a fresh reset link, in the same transaction.
 */
export async function updateDoctor(
  deps: { db: Database; storage: Storage; outbox: MailOutbox; publicUrl: string },
  actor: SignedInUser,
  doctorId: number,
  input: DoctorEditRequest,
  change: { picture?: SmallFile; remove?: boolean },
): Promise<{ activated: boolean }> {
  const isSelf = isDoctor(actor);
  assertOwnRecordIfDoctor(actor, { doctorId });
  const passwordHash = input.password ? await hashNewPassword(input.password) : undefined;
  const { result } = await inAccountTransaction(deps.db, deps.storage, async (tx, written) => {
    // Locked: two staff activating the same doctor at once must queue one activation mail.
    const current = await findDoctor(tx, doctorId, true);
    if (!current) throw notFound('Doctor');
    const roleId = isSelf ? current.roleId : input.roleId;
    const isActive = isSelf ? current.isActive : input.isActive;
    if (!isSelf) await assertDoctorRole(tx, roleId);
    await assertCountry(tx, input.countryId);
    const notice = isSelf ? await checkOwnAccountChange(tx, current.userId, input) : null;
    const revokesTokens = Boolean(passwordHash) || (current.isActive && !isActive);
    await tx
      .update(users)
      .set({
        userName: isSelf ? current.userName : input.username,
        firstName: input.firstname,
        lastName: input.lastname,
        email: input.email,
        mobileNo: input.mobileNo,
        roleId,
        isActive,
        ...(passwordHash ? { passwordHash } : {}),
        ...(revokesTokens ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      })
      .where(eq(users.userId, current.userId));
    await tx.update(doctors).set(doctorValues(input)).where(eq(doctors.doctorId, doctorId));
    await replaceClinics(tx, doctorId, input.clinicList);
    const replaced = await replacePicture(tx, deps.storage, current.userId, change, written);
    await enqueueOwnChangeNotice(tx, deps.outbox, notice);
    const activated = !current.isActive && isActive;
    if (activated) {
      await queueActivationMail(tx, deps, {
        userId: current.userId,
        email: input.email,
        userName: isSelf ? current.userName : input.username,
      });
    }
    return { activated, replaced, notice };
  });
  await deleteKeys(deps.storage, result.replaced);
  if (result.activated || result.notice) deps.outbox.kick();
  return { activated: result.activated };
}

/** The activation mail with a fresh reset link, in the transaction that activates the doctor. */
async function queueActivationMail(
  tx: Transaction,
  deps: { outbox: MailOutbox; publicUrl: string },
  account: { userId: number; email: string; userName: string },
): Promise<void> {
  const resetUrl = await createResetLink(tx, account.userId, deps.publicUrl);
  await deps.outbox.enqueue(tx, {
    to: account.email,
    template: 'activation',
    variables: { username: account.userName, resetUrl },
  });
}

/**
 * The Doctors screen's one-click Activate: only the status changes. Activating a doctor who
 * is already active changes nothing and mails nothing (two staff clicking at once send one mail).
 */
export async function activateDoctor(
  deps: { db: Database; outbox: MailOutbox; publicUrl: string },
  doctorId: number,
): Promise<{ activated: boolean }> {
  const activated = await deps.db.transaction(async (tx) => {
    const current = await findDoctor(tx, doctorId, true);
    if (!current) throw notFound('Doctor');
    if (current.isActive) return false;
    const [account] = await tx
      .update(users)
      .set({ isActive: true })
      .where(eq(users.userId, current.userId))
      .returning({ email: users.email });
    await queueActivationMail(tx, deps, { userId: current.userId, email: account!.email, userName: current.userName });
    return true;
  });
  if (activated) deps.outbox.kick();
  return { activated };
}

/** The doctor disappears from lists and cannot sign in; their cases stay. */
export async function deleteDoctor(db: Database, doctorId: number): Promise<void> {
  const current = await findDoctor(db, doctorId);
  if (!current) throw notFound('Doctor');
  await db
    .update(users)
    .set({ deletedAt: sql`now()`, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.userId, current.userId));
}

/** A reset link for the doctor; the answer's message holds it (docs/spec.md section 7). */
export async function requestDoctorPasswordReset(db: Database, doctorId: number, publicUrl: string): Promise<string> {
  const current = await findDoctor(db, doctorId);
  if (!current) throw notFound('Doctor');
  return createResetLink(db, current.userId, publicUrl);
}
