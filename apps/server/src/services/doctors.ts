import {
  ADMIN_ROLE_ID,
  DOCTOR_ROLE_ID,
  type Doctor,
  type DoctorAddRequest,
  type DoctorEditRequest,
  type DoctorListQuery,
} from '@portal/contract';
import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { isAdministrator, isDoctor, type SignedInUser } from '../auth/policy.ts';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { Database, Transaction } from '../db/client.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import { countries, doctors, liveRoleId, users } from '../db/schema.ts';
import { AppError, badRequest, isUniqueViolation, notFound } from '../lib/errors.ts';
import type { SmallFile } from '../lib/multipart-form.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { deleteKeys } from '../storage/delete-keys.ts';
import type { Storage } from '../storage/storage.ts';
import {
  assertUsernameFree,
  checkOwnAccountChange,
  enqueueChangeNotice,
  findUsernameOwner,
  inAccountTransaction,
  personName,
  replacePicture,
  sameEmail,
  staffChangeNotice,
} from './accounts.ts';
import { accountOrder, accountPage, accountSearch } from './account-list.ts';
import { replaceClinics } from './clinics.ts';
import { createResetLink, useUpResetLinks } from './password-reset.ts';
import { assertPictureSize, encodeProfilePicture } from './profile-pictures.ts';
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

function selectDoctors(db: Database | Transaction, where?: SQL, order: SQL[] = [asc(doctors.doctorId)]) {
  return db
    .select(doctorColumns)
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(isNull(users.deletedAt), where))
    .orderBy(...order);
}

/** A doctor as listed, with the picture's storage key where the answer has its address. */
export type DoctorRow = Omit<Doctor, 'ProfilePic'> & { profilePicKey: string | null };

/** One page of the doctors, oldest first unless sorted, and how many match. */
export async function listDoctors(db: Database, query: DoctorListQuery): Promise<{ rows: DoctorRow[]; total: number }> {
  const where = and(
    accountSearch(query.search),
    query.active === undefined ? undefined : eq(users.isActive, query.active === 'true'),
    query.userId === undefined ? undefined : eq(users.userId, query.userId),
  );
  const { limit, offset } = accountPage(query);
  const [rows, [counted]] = await Promise.all([
    selectDoctors(db, where, accountOrder(query.sort)).limit(limit).offset(offset),
    db
      .select({ total: count() })
      .from(doctors)
      .innerJoin(users, eq(users.userId, doctors.userId))
      .where(and(isNull(users.deletedAt), where)),
  ]);
  return { rows, total: counted!.total };
}

/** A doctor by UserId (a doctor reaches only their own: routes/records.ts, doctorUser). */
export async function getDoctorByUserId(db: Database, userId: number): Promise<DoctorRow[]> {
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

type NewAccount = Pick<typeof users.$inferInsert, 'roleId' | 'isActive' | 'passwordHash' | 'deletedAt'>;

/** Writes the doctor's user, doctor and clinic rows; every check runs on the way. */
async function insertDoctor(
  tx: Transaction,
  input: DoctorAddRequest,
  account: NewAccount,
): Promise<{ userId: number; doctorId: number }> {
  await assertDoctorRole(tx, account.roleId!);
  await assertCountry(tx, input.countryId);
  const [user] = await tx
    .insert(users)
    .values({
      userName: input.username,
      firstName: input.firstname,
      lastName: input.lastname,
      email: input.email,
      mobileNo: input.mobileNo,
      userType: 'Doctor',
      locale: input.locale,
      ...account,
    })
    .returning({ userId: users.userId });
  const [doctor] = await tx
    .insert(doctors)
    .values({ userId: user!.userId, ...doctorValues(input) })
    .returning({ doctorId: doctors.doctorId });
  await replaceClinics(tx, doctor!.doctorId, input.clinicList);
  return { userId: user!.userId, doctorId: doctor!.doctorId };
}

/** A doctor added from the Doctors page: staff choose the role and status; a taken name is 409. */
export async function addDoctor(
  deps: { db: Database; storage: Storage; passwords: PasswordHasher },
  input: DoctorAddRequest,
  picture?: SmallFile,
): Promise<number> {
  const { db, storage } = deps;
  // The cheap refusals first: the argon2 hash and the picture's decoding cost CPU.
  await assertUsernameFree(db, input.username);
  if (picture) await assertPictureSize(picture);
  const passwordHash = await deps.passwords.hashNew(input.password);
  const { result } = await inAccountTransaction(db, storage, async (tx, written) => {
    const { userId, doctorId } = await insertDoctor(tx, input, {
      roleId: input.roleId,
      isActive: input.isActive,
      passwordHash,
    });
    await replacePicture(tx, storage, userId, { picture }, written);
    return doctorId;
  });
  return result;
}

/** Rolls back a registration of a taken username once it has done a new one's work. */
class UsernameTaken extends Error {}

/**
 * Self-registration: role 19, inactive. Whether the username was free or taken, the caller
 * gets the same answer after the same work, so registration tells no one which names
 * exist (issue 20; docs/decisions/accounts.md § Registration tells nothing about usernames): a
 * taken name goes through every check and write as a deleted row (which the partial unique
 * index lets by) in a savepoint that is rolled back. The outcome goes by e-mail, in the
 * same transaction: to the address given, and to the owner of a taken name.
 */
export async function registerDoctor(
  deps: { db: Database; storage: Storage; outbox: MailOutbox; passwords: PasswordHasher },
  input: DoctorAddRequest,
  picture?: SmallFile,
): Promise<{ doctorId: number | null }> {
  if (picture) await assertPictureSize(picture);
  const passwordHash = await deps.passwords.hashNew(input.password);
  const { result } = await inAccountTransaction(deps.db, deps.storage, async (tx, written) => {
    const owner = await findUsernameOwner(tx, input.username);
    const account = { roleId: DOCTOR_ROLE_ID, isActive: false, passwordHash };
    const doctorId = await tx
      .transaction(async (savepoint) => {
        const created = await insertDoctor(savepoint, input, owner ? { ...account, deletedAt: new Date() } : account);
        if (owner) {
          // Checked and encoded as a new account's would be, but not stored: nothing of it stays.
          if (picture) await encodeProfilePicture(picture);
          throw new UsernameTaken();
        }
        await replacePicture(savepoint, deps.storage, created.userId, { picture }, written);
        return created.doctorId;
      })
      .catch((error: unknown) => {
        // A registration that lost the race for the name to another one is taken too.
        if (error instanceof UsernameTaken || isUniqueViolation(error, 'users_name_unique')) return null;
        throw error;
      });
    await queueRegistrationMails(tx, deps.outbox, input, doctorId === null);
    return doctorId;
  });
  deps.outbox.kick();
  return { doctorId: result };
}

async function queueRegistrationMails(tx: Transaction, outbox: MailOutbox, input: DoctorAddRequest, isTaken: boolean) {
  const variables = { name: `${input.firstname} ${input.lastname}`, username: input.username };
  // In the language the registration chose (or its browser's): no account may hold it yet, or another's does.
  const locale = input.locale;
  if (!isTaken) {
    await outbox.enqueue(tx, { to: input.email, locale, template: 'registrationReceived', variables });
    return;
  }
  await outbox.enqueue(tx, { to: input.email, locale, template: 'registrationNotCompleted', variables });
  const owner = await findUsernameOwner(tx, input.username);
  if (owner && !sameEmail(owner.email, input.email)) {
    await outbox.enqueue(tx, {
      to: owner.email,
      template: 'usernameRegistrationAttempt',
      variables: { name: personName(owner), username: owner.userName },
    });
  }
}

/** A live doctor's account; `forUpdate` locks it until the transaction ends. */
async function findDoctor(tx: Transaction | Database, doctorId: number, forUpdate = false) {
  const query = tx
    .select({
      userId: users.userId,
      isActive: users.isActive,
      roleId: liveRoleId,
      userName: users.userName,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(doctors)
    .innerJoin(users, eq(users.userId, doctors.userId))
    .where(and(eq(doctors.doctorId, doctorId), isNull(users.deletedAt)));
  const [row] = forUpdate ? await query.for('update', { of: users }) : await query;
  return row;
}

/**
 * Only the administrator sets a doctor's password or e-mail: with either, other staff could
 * sign in as the doctor and read their patients' cases, which no page of theirs opens
 * (issue 20; the Web-user rule of docs/decisions/access.md § Who may call what, for doctors).
 * Other staff send the doctor a reset link, which goes to the doctor's own address only.
 */
const doctorCredentialsForbidden =
  "Only the administrator can set a doctor's password or e-mail address; send the doctor a reset link instead";
const credentialsForbidden = (field: 'password' | 'email') =>
  new AppError(403, doctorCredentialsForbidden, { [field]: doctorCredentialsForbidden });

/**
 * Staff edit every field but a doctor's password and e-mail, which only the administrator
 * sets. A doctor editing their own profile keeps their username, role and status whatever
 * they send. Going from inactive to active queues the activation mail with a fresh reset
 * link, in the same transaction. The doctor's old address is told of a new password or
 * e-mail, and their open reset links die with the old ones, as with deactivation.
 */
export async function updateDoctor(
  deps: { db: Database; storage: Storage; outbox: MailOutbox; passwords: PasswordHasher; publicUrl: string },
  actor: SignedInUser,
  doctorId: number,
  input: DoctorEditRequest,
  change: { picture?: SmallFile; remove?: boolean },
): Promise<{ activated: boolean }> {
  // A doctor reaches only their own record (routes/records.ts, doctor).
  const isSelf = isDoctor(actor);
  const maySetCredentials = isSelf || isAdministrator(actor);
  // Refused before the argon2 hash; a new e-mail is refused once the current one is read.
  if (!maySetCredentials && input.password) throw credentialsForbidden('password');
  const passwordHash = input.password ? await deps.passwords.hashNew(input.password) : undefined;
  const { result } = await inAccountTransaction(deps.db, deps.storage, async (tx, written) => {
    // Locked: two staff activating the same doctor at once must queue one activation mail.
    const current = await findDoctor(tx, doctorId, true);
    if (!current) throw notFound('Doctor');
    if (!maySetCredentials && !sameEmail(current.email, input.email)) throw credentialsForbidden('email');
    const roleId = isSelf ? current.roleId : input.roleId;
    const isActive = isSelf ? current.isActive : input.isActive;
    if (!isSelf) await assertDoctorRole(tx, roleId);
    await assertCountry(tx, input.countryId);
    const notice = isSelf
      ? await checkOwnAccountChange(tx, deps.passwords, current.userId, input)
      : await staffChangeNotice(tx, current.userId, input);
    const deactivated = current.isActive && !isActive;
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
        ...(passwordHash || deactivated ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      })
      .where(eq(users.userId, current.userId));
    if (notice || deactivated) await useUpResetLinks(tx, current.userId);
    await tx.update(doctors).set(doctorValues(input)).where(eq(doctors.doctorId, doctorId));
    await replaceClinics(tx, doctorId, input.clinicList);
    const replaced = await replacePicture(tx, deps.storage, current.userId, change, written);
    await enqueueChangeNotice(tx, deps.outbox, notice);
    const activated = !current.isActive && isActive;
    if (activated) {
      await queueActivationMail(tx, deps, {
        userId: current.userId,
        email: input.email,
        name: personName({ firstName: input.firstname, lastName: input.lastname }),
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
  account: { userId: number; email: string; name: string },
): Promise<void> {
  const resetUrl = await createResetLink(tx, account.userId, deps.publicUrl);
  await deps.outbox.enqueue(tx, {
    to: account.email,
    template: 'activation',
    variables: { name: account.name, resetUrl },
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
    await queueActivationMail(tx, deps, { userId: current.userId, email: account!.email, name: personName(current) });
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

/**
 * Mails the doctor a reset link at their own address. The caller never sees the link: staff
 * who could read it could sign in as the doctor (issue 20; see
 * docs/decisions/accounts.md § Doctor activation and password reset links).
 */
export async function requestDoctorPasswordReset(
  deps: { db: Database; outbox: MailOutbox; publicUrl: string },
  doctorId: number,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const current = await findDoctor(tx, doctorId);
    if (!current) throw notFound('Doctor');
    const resetUrl = await createResetLink(tx, current.userId, deps.publicUrl);
    await deps.outbox.enqueue(tx, {
      to: current.email,
      template: 'passwordReset',
      variables: { name: personName(current), resetUrl },
    });
  });
  deps.outbox.kick();
}
