import {
  auditOutcomes,
  caseFieldList,
  caseOrderTypes,
  defaultLocale,
  mailDeliveries,
  mailKinds,
  supportedLocales,
  toothNotations,
} from '@portal/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  type AnyPgColumn,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const roles = pgTable(
  'roles',
  {
    roleId: integer('role_id').primaryKey().generatedByDefaultAsIdentity({ startWith: 100 }),
    roleName: text('role_name').notNull(),
    description: text('description').notNull().default(''),
    /** Set by the administrator: its users sign in with a second factor (docs/decisions/second-factor.md § Second factor). */
    requiresSecondFactor: boolean('requires_second_factor').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('roles_name_unique').on(sql`lower(${table.roleName})`)],
);

export const pages = pgTable('pages', {
  pageId: integer('page_id').primaryKey(),
  pageName: text('page_name').notNull(),
  pageUrl: text('page_url').notNull().unique(),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.roleId, { onDelete: 'cascade' }),
    pageId: integer('page_id')
      .notNull()
      .references(() => pages.pageId, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.pageId] })],
);

export const countries = pgTable('countries', {
  countryId: integer('country_id').primaryKey(),
  isoCode: text('iso_code').notNull().unique(),
  countryName: text('country_name').notNull(),
});

export const cities = pgTable(
  'cities',
  {
    cityId: integer('city_id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.countryId),
    cityName: text('city_name').notNull(),
  },
  (table) => [index('cities_country_idx').on(table.countryId, table.cityName)],
);

/**
 * Web users and doctors alike. Rows are never removed: a deleted user keeps its cases,
 * and `deletedAt` hides it. `tokenVersion` goes up on delete, deactivation and password
 * change, which refuses every token issued before.
 */
export const users = pgTable(
  'users',
  {
    userId: integer('user_id').primaryKey().generatedAlwaysAsIdentity(),
    userName: text('user_name').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    mobileNo: text('mobile_no').notNull().default(''),
    /** Null only for a deleted user whose role was deleted after them (docs/decisions/access.md § Roles). */
    roleId: integer('role_id').references(() => roles.roleId),
    userType: text('user_type', { enum: ['Web', 'Doctor', 'Assistant'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The picture's storage key (`users/<id>/<16 hex>.png`); answers build its address. */
    profilePic: text('profile_pic'),
    isActive: boolean('is_active').notNull().default(true),
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    /** The user's time zone (docs/decisions/settings.md § Time zones); null: the lab's, until the web app sets the browser's. */
    timeZone: text('time_zone'),
    /** The user's language (docs/decisions/languages.md § The user's language on the server): their screens, mails and PDFs. */
    locale: text('locale', { enum: supportedLocales }).notNull().default(defaultLocale),
    /** The user's tooth notation (docs/decisions/tooth-notation.md); null: not chosen, the default by the clinic's country. */
    toothNotation: text('tooth_notation', { enum: toothNotations }),
  },
  (table) => [
    uniqueIndex('users_name_unique')
      .on(sql`lower(${table.userName})`)
      .where(sql`${table.deletedAt} is null`),
    index('users_type_idx').on(table.userType),
    // Case lists sorted by doctorname: the doctors in name order, then each one's cases.
    index('users_full_name_idx').on(sql`(${table.firstName} || ' ' || ${table.lastName})`),
    check('users_live_role', sql`${table.deletedAt} is not null or ${table.roleId} is not null`),
    check(
      'users_locale_check',
      sql`${table.locale} in (${sql.raw(supportedLocales.map((value) => `'${value}'`).join(', '))})`,
    ),
    check(
      'users_tooth_notation_check',
      sql`${table.toothNotation} is null or ${table.toothNotation} in (${sql.raw(toothNotations.map((value) => `'${value}'`).join(', '))})`,
    ),
  ],
);

export const doctors = pgTable('doctors', {
  doctorId: integer('doctor_id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.userId),
  countryId: integer('country_id').references(() => countries.countryId),
  gender: text('gender').notNull(),
  profession: text('profession').notNull().default(''),
  professionalSpecialization: text('professional_specialization').notNull().default(''),
  academicTitle: text('academic_title').notNull().default(''),
  message: text('message').notNull().default(''),
});

/**
 * Which doctors an assistant works for (docs/decisions/assistants.md § Assistants): one row per doctor
 * and assistant, kept when revoked (`revokedAt`) and cleared again by a new invitation. The
 * signed-in user's reach is read from the live rows on every request.
 */
export const doctorAssistants = pgTable(
  'doctor_assistants',
  {
    doctorUserId: integer('doctor_user_id')
      .notNull()
      .references(() => users.userId),
    assistantUserId: integer('assistant_user_id')
      .notNull()
      .references(() => users.userId),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    primaryKey({ columns: [table.doctorUserId, table.assistantUserId] }),
    index('doctor_assistants_assistant_idx').on(table.assistantUserId),
  ],
);

/**
 * Each invitation mail a doctor sent (docs/decisions/invitations-events-files.md): kept when
 * the link is revoked or renewed, so revoking and inviting again counts against the daily bound.
 */
export const assistantInvitations = pgTable(
  'assistant_invitations',
  {
    invitationId: integer('invitation_id').primaryKey().generatedAlwaysAsIdentity(),
    doctorUserId: integer('doctor_user_id')
      .notNull()
      .references(() => users.userId),
    assistantUserId: integer('assistant_user_id')
      .notNull()
      .references(() => users.userId),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('assistant_invitations_doctor_sent_idx').on(table.doctorUserId, table.sentAt)],
);

/** Clinics are hidden, not removed, when a doctor drops them: cases point at them. */
export const clinics = pgTable(
  'clinics',
  {
    clinicId: integer('clinic_id').primaryKey().generatedAlwaysAsIdentity(),
    doctorId: integer('doctor_id')
      .notNull()
      .references(() => doctors.doctorId),
    clinicName: text('clinic_name').notNull(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.countryId),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.cityId),
    contactNo: text('contact_no').notNull().default(''),
    address: text('address').notNull().default(''),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('clinics_doctor_idx').on(table.doctorId)],
);

/** Reset tokens are stored as SHA-256 hashes; the link holds the only copy of the token. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId),
    /**
     * 'invitation': an invited account's first password, good for days, its page a welcome;
     * 'reset': a new password, good for an hour (docs/decisions/accounts.md § Invitation links).
     */
    kind: text('kind', { enum: ['reset', 'invitation'] })
      .notNull()
      .default('reset'),
    /** Who invited (the invitation's page names them); null for a reset. */
    invitedBy: integer('invited_by').references(() => users.userId),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('password_reset_tokens_user_idx').on(table.userId)],
);

/**
 * One row per signed-in token (docs/decisions/sign-in-and-sessions.md § Sessions), its id the token's `jti`: a
 * token is good only while its row is here, so ending a session deletes the row and every
 * process refuses the token at its next request. `tokenVersion` is the user's at sign-in:
 * a row from an earlier version is dead (its token is refused) and is no longer listed.
 */
export const sessions = pgTable(
  'sessions',
  {
    sessionId: text('session_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId),
    tokenVersion: integer('token_version').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The client address of its last request (as `lastSeenAt`, updated at most once a minute). */
    address: text('address').notNull(),
    userAgent: text('user_agent').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * When the holder last proved again who they are (password, code or passkey): a change of
     * their second factors needs this within minutes (docs/decisions/second-factor-changes.md).
     */
    provedAt: timestamp('proved_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('sessions_user_idx').on(table.userId, table.createdAt)],
);

/**
 * A user's authenticator-app secret (RFC 6238). Unconfirmed until a code from it is
 * accepted; `lastTimeStep` is the time step of the last code accepted, so no code is
 * accepted twice (docs/decisions/second-factor.md § Second factor).
 */
export const totpFactors = pgTable('totp_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.userId, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes, stored as SHA-256 of the code (80 random bits each). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    codeId: integer('code_id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('recovery_codes_user_hash').on(table.userId, table.codeHash)],
);

/** A WebAuthn credential (passkey) registered by a user. */
export const passkeys = pgTable(
  'passkeys',
  {
    passkeyId: integer('passkey_id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** base64url, as WebAuthn names it. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
);

/**
 * WebAuthn challenges handed out and not yet answered: each is taken (deleted) by the
 * answer that uses it, so one challenge signs at most one ceremony.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  /** The user it was issued for; null for a passwordless sign-in (any passkey may answer). */
  userId: integer('user_id').references(() => users.userId, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ['register', 'authenticate'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Wrong answers at the second step of a sign-in, per account whatever the address, kept for
 * a day: the database counts them so every process of the portal shares the count
 * (services/second-step-lock.ts).
 */
export const secondStepFailures = pgTable(
  'second_step_failures',
  {
    failureId: integer('failure_id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('second_step_failures_user_idx').on(table.userId, table.failedAt)],
);

/** An account whose second step is locked after too many wrong answers, until `lockedUntil`. */
export const secondStepLocks = pgTable('second_step_locks', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.userId, { onDelete: 'cascade' }),
  lockedAt: timestamp('locked_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Interim sign-in tokens used up before they expire (services/second-factor); rows past `expiresAt` can go. */
export const revokedTokens = pgTable('revoked_tokens', {
  jti: text('jti').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Mail is written here in the same transaction as the change that causes it, then sent
 * by the dispatcher; a failed send stays here and is retried, so a change never waits
 * on (or fails with) the mail server. Variables are cleared once the mail is sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    mailId: integer('mail_id').primaryKey().generatedAlwaysAsIdentity(),
    recipient: text('recipient').notNull(),
    template: text('template').notNull(),
    /** No longer written: every subject comes from its template (mail/templates.ts). */
    subject: text('subject'),
    variables: jsonb('variables').$type<Record<string, string>>().notNull(),
    /** The reader's language, found when the mail is queued (mail/outbox.ts): its words and its Content-Language. */
    locale: text('locale', { enum: supportedLocales }).notNull().default(defaultLocale),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    index('mail_outbox_pending_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} is null`),
  ],
);

export const jobStates = ['queued', 'running', 'done', 'failed'] as const;
/**
 * Background work (jobs/job-queue.ts), kept in the database so it survives a restart and runs
 * once across processes: a claim moves `run_at` a lease ahead, so the job of a process that
 * died is claimed again when its lease runs out.
 */
export const jobs = pgTable(
  'jobs',
  {
    jobId: integer('job_id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: text('state', { enum: jobStates }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** When it may next be claimed: a queued job's start, a running job's lease end, a retry's time. */
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    /**
     * Whose work it is (the doctor of the case it belongs to): jobs are claimed in turns by
     * owner, so one doctor's many files cannot hold back another's (job-queue.ts). No
     * foreign key: a job outlives nothing it would block. Null for a job of no one's.
     */
    ownerUserId: integer('owner_user_id'),
    /** When it was last claimed: an owner's turn comes after every owner claimed less recently. */
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('jobs_due_idx')
      .on(table.runAt)
      .where(sql`${table.state} in ('queued', 'running')`),
    // Each owner's last claim, read backwards for each due job when choosing whose turn it is.
    index('jobs_owner_claimed_idx').on(table.ownerUserId, table.claimedAt),
    check('jobs_state_check', sql`${table.state} in ('queued', 'running', 'done', 'failed')`),
  ],
);

export const meshViewStates = ['pending', 'ready', 'failed'] as const;
/**
 * The viewing copy of a stored STL (services/mesh-views.ts): a welded, quantized,
 * meshopt-compressed glTF made by a background job, stored at `viewKey` under `views/`. The
 * original at `sourceKey` stays byte for byte and is what downloads serve; the row is made
 * with the original's own row, in its transaction.
 */
export const meshViews = pgTable(
  'mesh_views',
  {
    sourceKey: text('source_key').primaryKey(),
    state: text('state', { enum: meshViewStates }).notNull().default('pending'),
    viewKey: text('view_key').unique(),
    viewBytes: bigint('view_bytes', { mode: 'number' }),
    triangles: integer('triangles'),
    /** Why no copy could be made (the viewer then shows the original, and says so). */
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [check('mesh_views_state_check', sql`${table.state} in ('pending', 'ready', 'failed')`)],
);

/**
 * The patients' files the portal keeps in storage, as two rows: the originals (case files,
 * message attachments, plan stages) and their viewing copies (`mesh_views`, once ready). Kept
 * by triggers on those four tables (migration 0032) in the transaction of each change, so
 * `GET /metrics` reads two rows instead of summing every file.
 */
export const storedTotals = pgTable('stored_totals', {
  kind: text('kind', { enum: ['original', 'viewing_copy'] }).primaryKey(),
  files: bigint('files', { mode: 'number' }).notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
});

const caseStatusValues = ['new', 'inprogress', 'dispatched', 'delivered'] as const;
/** A plan version's state; `cases.plan_state` copies the newest version's, for the tiles and filters. */
export const planStates = ['awaiting_approval', 'changes_requested', 'approved', 'superseded'] as const;
const caseText = (name: string) => text(name).notNull().default('');
/** The patient-name columns whose sort indexes are written by hand (see the cases table's indexes). */
const searchedNameColumns = new Set(['first_name', 'last_name']);

/**
 * One row per submitted case; the answer names of docs/spec.md section 3 are mapped in
 * services/cases/case-rows.ts. `doctorUserId` is the doctor's UserId. The indexes serve the
 * paged lists (status or doctor, newest first) and the search on tracking number.
 */
export const cases = pgTable(
  'cases',
  {
    caseId: integer('case_id').primaryKey().generatedAlwaysAsIdentity(),
    trackingNo: text('tracking_no').notNull(),
    doctorUserId: integer('doctor_user_id')
      .notNull()
      .references(() => users.userId),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.clinicId),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /**
     * "first last" as a search compares it (portal_fold: no accents, lowered), kept with the
     * row: a doctor's search reads their few hundred cases and would fold each name in each
     * query (docs/decisions/lists-and-search.md § Accent-blind search).
     */
    patientNameFolded: text('patient_name_folded').generatedAlwaysAs(sql`portal_fold(first_name || ' ' || last_name)`),
    dob: date('dob', { mode: 'string' }).notNull(),
    gender: caseText('gender'),
    arches: text('arches').notNull(),
    nature: text('nature').notNull(),
    shipment: caseText('shipment'),
    passiveAligner: caseText('passive_aligner'),
    alignerShipment: text('aligner_shipment').notNull(),
    ipr: caseText('ipr'),
    complaint: text('complaint').notNull(),
    impressionType: text('impression_type').notNull(),
    imageType: text('image_type').notNull(),
    midline: text('midline').notNull(),
    overjet: text('overjet').notNull(),
    overbite: text('overbite').notNull(),
    crossBite: text('cross_bite').notNull(),
    rightCanine: caseText('right_canine'),
    leftCanine: caseText('left_canine'),
    rightMolar: caseText('right_molar'),
    leftMolar: caseText('left_molar'),
    iprPreference: caseText('ipr_preference'),
    proclination: caseText('proclination'),
    expansion: caseText('expansion'),
    extraction: caseText('extraction'),
    iprPrescription: caseText('ipr_prescription'),
    auxiliaryType: caseText('auxiliary_type'),
    toothNumbering: caseText('tooth_numbering'),
    moveTooth: caseText('move_tooth'),
    noElastic: caseText('no_elastic'),
    noAttachment: caseText('no_attachment'),
    extractTooth: caseText('extract_tooth'),
    specialInstruction: caseText('special_instruction'),
    status: text('status', { enum: caseStatusValues }).notNull().default('new'),
    // The newest treatment plan version's state, null before the first (kept with treatment_plans).
    planState: text('plan_state', { enum: planStates }),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.userId),
    // The case this one was ordered from, and as what (docs/decisions/cases.md § Orders from a case).
    parentCaseId: integer('parent_case_id').references((): AnyPgColumn => cases.caseId),
    orderType: text('order_type', { enum: caseOrderTypes }),
    // The lab's technician on the case, or none (docs/decisions/cases.md § Assignment and internal notes).
    assigneeUserId: integer('assignee_user_id').references(() => users.userId),
    // When the case entered its status: its days in status and due date (docs/decisions/cases.md § Turnaround).
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // The latest done progress scan has a tooth off track: kept by its fit's job (docs/decisions/progress-scans.md § Off track on the lists).
    offTrack: boolean('off_track').notNull().default(false),
  },
  (table) => [
    index('cases_status_changed_idx').on(table.status, table.statusChangedAt),
    // The "Off track" filter: only those cases, newest first, in the list's order; the status and
    // the doctor after them, so a list's count of them (by status, by doctor) reads the index alone.
    index('cases_off_track_idx')
      .on(table.createdAt, table.caseId, table.status, table.doctorUserId)
      .where(sql`${table.offTrack}`),
    index('cases_assignee_created_idx')
      .on(table.assigneeUserId, table.createdAt, table.caseId)
      .where(sql`${table.assigneeUserId} is not null`),
    uniqueIndex('cases_tracking_no_unique').on(table.trackingNo),
    index('cases_parent_idx').on(table.parentCaseId, table.caseId),
    check('cases_order_pair_check', sql`(${table.parentCaseId} is null) = (${table.orderType} is null)`),
    index('cases_status_created_idx').on(table.status, table.createdAt, table.caseId),
    index('cases_doctor_status_created_idx').on(table.doctorUserId, table.status, table.createdAt, table.caseId),
    index('cases_created_idx').on(table.createdAt, table.caseId),
    index('cases_doctor_created_idx').on(table.doctorUserId, table.createdAt, table.caseId),
    // Case-insensitive substring search (ILIKE '%...%'); pg_trgm folds case itself.
    index('cases_plan_state_idx')
      .on(table.planState, table.doctorUserId, table.createdAt, table.caseId)
      .where(sql`${table.planState} is not null`),
    index('cases_tracking_no_trgm_idx').using('gin', table.trackingNo.op('gin_trgm_ops')),
    // A search across first name and surname (accent-blind since 0026; on the stored column since 0031).
    index('cases_patient_name_trgm_idx').using('gin', table.patientNameFolded.op('gin_trgm_ops')),
    // A page of the list sorted by any column it may be sorted by (the sort's tie-break is
    // case_id): read from an index, not a sort of every case. TrackingNo and CreatedAt have theirs above.
    index('cases_status_sort_idx').on(table.status, table.caseId),
    ...caseFieldList
      .filter((field) => 'isSortable' in field && field.isSortable && !searchedNameColumns.has(field.column))
      .map((field) => index(`cases_${field.column}_sort_idx`).on(table[field.key], table.caseId)),
    // users_full_name_trgm_idx, on the doctors' folded names, is an expression index written by hand (0001, 0030).
    // cases_first_name_sort_idx and cases_last_name_sort_idx, on (name, case_id) as the others,
    // also carry created_at, status and the doctor, the surnames' index the first name too
    // (INCLUDE, which drizzle cannot write: by hand in 0013 and 0014): a search counts and
    // sorts the cases of the names it found from them alone (search-cases.ts).
    // cases_first_name_created_idx and cases_last_name_created_idx (0015, by hand for the same
    // reason): (name, created_at, case_id), from which a date-sorted search reads each name's
    // newest cases (search-cases.ts topMatches).
  ],
);

/**
 * Every first name and surname a case has had, once each (kept by a trigger on cases,
 * migration 0013): a search finds the names here, then the cases by name through the
 * cases' name indexes, without reading every matching case (services/cases/search-cases.ts).
 */
// patient_names_folded_trgm_idx on portal_fold(name): an expression index written by hand in migration 0026.
export const patientNames = pgTable('patient_names', { name: text('name').primaryKey() });

/** Files of a case: the server-made storage key, and what the uploader sent (name for display only). */
export const caseAttachments = pgTable(
  'case_attachments',
  {
    attachmentId: integer('attachment_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    fileType: text('file_type').notNull(),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('case_attachments_case_idx').on(table.caseId, table.attachmentId)],
);

/** Every status a case has had: the first row (from null to new) is its submission. */
export const caseStatusHistory = pgTable(
  'case_status_history',
  {
    historyId: integer('history_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    fromStatus: text('from_status', { enum: caseStatusValues }),
    toStatus: text('to_status', { enum: caseStatusValues }).notNull(),
    changedBy: integer('changed_by')
      .notNull()
      .references(() => users.userId),
    changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // What the change carried (docs/decisions/cases.md § Case status workflow): a note on any
    // change, the reason for going back, the courier and its tracking number when dispatched.
    note: text('note'),
    reason: text('reason'),
    courier: text('courier'),
    trackingNumber: text('tracking_number'),
  },
  (table) => [index('case_status_history_case_idx').on(table.caseId, table.historyId)],
);

/**
 * How many cases each doctor has in each status, kept by a trigger on `cases` (migration
 * 0003) in the same transaction as every insert, status change and delete. Stats and the
 * list's total read these few rows instead of counting every case.
 */
export const caseCounts = pgTable(
  'case_counts',
  {
    doctorUserId: integer('doctor_user_id').notNull(),
    status: text('status', { enum: caseStatusValues }).notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.doctorUserId, table.status] })],
);

/**
 * How many cases are in each status over all doctors, kept by the same trigger as
 * `case_counts` (migration 0012): staff's stats and list totals read these four rows instead
 * of summing a row per doctor. Every status has its row from the start, so the trigger only
 * updates, both rows of a status change in one statement (one lock order, no deadlock).
 */
export const caseStatusTotals = pgTable('case_status_totals', {
  status: text('status', { enum: caseStatusValues }).primaryKey(),
  count: integer('count').notNull(),
});

/**
 * Who did what, to what, when (UTC) and from where: sign-ins, refusals, case reads and
 * changes, and every administrative change (plugins/audit.ts). Rows are only ever added.
 * `actorUserId` has no foreign key on purpose: an entry must be written whatever happens to
 * the account, and `actorName` keeps the username as it was (or the one typed at a failed
 * sign-in). No passwords, tokens or patient names are ever written here.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    auditId: bigint('audit_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome', { enum: auditOutcomes }).notNull(),
    statusCode: integer('status_code').notNull(),
    address: text('address').notNull(),
    requestId: text('request_id').notNull(),
    /** What a change changed, each setting's before and after (the lab's settings); null for the rest. */
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>(),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at, table.auditId),
    index('audit_log_action_at_idx').on(table.action, table.at),
    index('audit_log_actor_at_idx').on(sql`lower(${table.actorName})`, table.at),
  ],
);

// ---------------------------------------------------------------------------- the conversation

/** Which side of the conversation wrote a message: the case's doctor, or the lab's staff. */
export const messageSides = ['doctor', 'lab'] as const;

/** One message about a case (docs/decisions/messages.md § Messages): its text, and files in case_message_files. */
export const caseMessages = pgTable(
  'case_messages',
  {
    messageId: integer('message_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    authorUserId: integer('author_user_id')
      .notNull()
      .references(() => users.userId),
    side: text('side', { enum: messageSides }).notNull(),
    body: text('body').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [
    index('case_messages_case_idx').on(table.caseId, table.messageId),
    index('case_messages_side_idx').on(table.side, table.messageId),
  ],
);

/** Files sent with a message, stored like case files: a server-made key, the sender's name for display. */
export const caseMessageFiles = pgTable(
  'case_message_files',
  {
    fileId: integer('file_id').primaryKey().generatedAlwaysAsIdentity(),
    messageId: integer('message_id')
      .notNull()
      .references(() => caseMessages.messageId),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('case_message_files_message_idx').on(table.messageId)],
);

/** How far each user has read each case's conversation: messages after `lastReadMessageId` are unread. */
export const caseMessageReads = pgTable(
  'case_message_reads',
  {
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId),
    lastReadMessageId: integer('last_read_message_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.caseId] })],
);

/** When each person was last e-mailed about a case's messages: at most one mail per case per person per window. */
export const caseMessageMails = pgTable(
  'case_message_mails',
  {
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId),
    lastMailedAt: timestamp('last_mailed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.caseId, table.userId] })],
);

// ---------------------------------------------------------------------------- treatment plans

export const planArches = ['upper', 'lower'] as const;

/**
 * One version of a case's staged treatment plan (docs/decisions/plans.md § Treatment plans): the
 * summary the lab wrote (stage counts, IPR, attachments, notes) and the doctor's decision.
 * A new version supersedes the one before it in the same transaction.
 */
export const treatmentPlans = pgTable(
  'treatment_plans',
  {
    planId: integer('plan_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    version: integer('version').notNull(),
    state: text('state', { enum: planStates }).notNull().default('awaiting_approval'),
    summary: jsonb('summary').notNull(),
    uploadedBy: integer('uploaded_by')
      .notNull()
      .references(() => users.userId),
    createdAt: createdAt(),
    decidedBy: integer('decided_by').references(() => users.userId),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    // The doctor's decision, kept when a newer version supersedes this one; the comment goes with changes_requested.
    decision: text('decision', { enum: ['approved', 'changes_requested'] }),
    // The approving doctor's tick "I have reviewed this plan in 3D"; null until approved (and for approvals before it existed).
    reviewedIn3d: boolean('reviewed_in_3d'),
    // The approving doctor acknowledged the version's findings against the prescription; null when there were none.
    findingsAcknowledged: boolean('findings_acknowledged'),
    comment: text('comment'),
  },
  (table) => [uniqueIndex('treatment_plans_case_version_unique').on(table.caseId, table.version)],
);

/** One stage's model of one arch in a plan version: an STL in storage. */
export const planStageFiles = pgTable(
  'plan_stage_files',
  {
    stageFileId: integer('stage_file_id').primaryKey().generatedAlwaysAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => treatmentPlans.planId),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    arch: text('arch', { enum: planArches }).notNull(),
    stage: integer('stage').notNull(),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
  },
  (table) => [uniqueIndex('plan_stage_files_plan_arch_stage_unique').on(table.planId, table.arch, table.stage)],
);

/**
 * How far each tooth of a plan version's arch moves from stage 0 to the last stage
 * (meshes/tooth-movements.ts), measured by the job that makes the arch's viewing copy:
 * the teeth (`teeth`, one object per tooth as the contract's toothMovement without
 * `overLimit`, which is decided when read), or why there are none (`unavailable`).
 */
export const planMovements = pgTable(
  'plan_movements',
  {
    planId: integer('plan_id')
      .notNull()
      .references(() => treatmentPlans.planId),
    arch: text('arch', { enum: planArches }).notNull(),
    teeth: jsonb('teeth').notNull(),
    unavailable: text('unavailable'),
    measuredAt: timestamp('measured_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.planId, table.arch] })],
);

/**
 * A comment the case's doctor pinned to a point of a plan version at a stage
 * (docs/decisions/plans.md § Comments pinned to the model): a draft of the doctor's until their
 * change request sends it (`sent_at`), then the lab's to resolve.
 */
export const planComments = pgTable(
  'plan_comments',
  {
    commentId: integer('comment_id').primaryKey().generatedAlwaysAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => treatmentPlans.planId),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.userId),
    stage: integer('stage').notNull(),
    arch: text('arch', { enum: planArches }).notNull(),
    /** [x, y, z] in millimetres, in the plan's coordinates. */
    point: jsonb('point').notNull(),
    /** Universal 1-32, the nearest at that stage; null when the teeth were not measured. */
    tooth: integer('tooth'),
    text: text('text').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolvedBy: integer('resolved_by').references(() => users.userId),
  },
  (table) => [index('plan_comments_plan_idx').on(table.planId, table.commentId)],
);

/** Replies on a pinned comment sent to the lab: the lab and the doctor's side, oldest first. */
export const planCommentReplies = pgTable(
  'plan_comment_replies',
  {
    replyId: integer('reply_id').primaryKey().generatedAlwaysAsIdentity(),
    commentId: integer('comment_id')
      .notNull()
      .references(() => planComments.commentId),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.userId),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('plan_comment_replies_comment_idx').on(table.commentId, table.replyId)],
);

/** Each change of a case's technician, for its timeline: to a user, or to none (unassigned). */
export const caseAssignments = pgTable(
  'case_assignments',
  {
    assignmentId: integer('assignment_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    assigneeUserId: integer('assignee_user_id').references(() => users.userId),
    assignedBy: integer('assigned_by')
      .notNull()
      .references(() => users.userId),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('case_assignments_case_idx').on(table.caseId, table.assignmentId)],
);

/** The lab's notes on a case: staff read and write them, no doctor ever sees one. */
export const caseNotes = pgTable(
  'case_notes',
  {
    noteId: integer('note_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.userId),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('case_notes_case_idx').on(table.caseId, table.noteId)],
);

/**
 * A read-only link for the patient to one plan version (docs/decisions/plans.md § Patient links):
 * only the SHA-256 of its token is kept; it opens until `expires_at` unless revoked.
 */
export const planShares = pgTable(
  'plan_shares',
  {
    shareId: integer('share_id').primaryKey().generatedAlwaysAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => treatmentPlans.planId),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.userId),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    /** The address the doctor had the link mailed to; null for a link only copied. */
    emailedTo: text('emailed_to'),
  },
  (table) => [
    index('plan_shares_plan_idx').on(table.planId),
    // The daily bound on mailed links counts a doctor's of the last 24 hours.
    index('plan_shares_mailed_idx').on(table.createdBy, table.createdAt),
  ],
);

// ---------------------------------------------------------------------------- doctor defaults

/**
 * A doctor's usual choices for a new case (docs/decisions/case-form.md § Doctor defaults): the
 * preference fields of the case field table as last saved, checked by the contract's
 * `doctorPreferences` before they are written.
 */
export const doctorPreferences = pgTable('doctor_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.userId),
  preferences: jsonb('preferences').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------- e-mail preferences

/**
 * How a user gets each kind of case mail (docs/decisions/mail.md § E-mail preferences); no row is
 * every kind immediate, as before preferences existed.
 */
export const mailPreferences = pgTable('mail_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.userId),
  messages: text('messages', { enum: mailDeliveries }).notNull().default('immediate'),
  plans: text('plans', { enum: mailDeliveries }).notNull().default('immediate'),
  status: text('status', { enum: mailDeliveries }).notNull().default('immediate'),
  progress: text('progress', { enum: mailDeliveries }).notNull().default('immediate'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A case mail held for its user's daily digest: the mail it would have been (template and
 * variables), so the digest tells it in the same words; deleted in the transaction that
 * queues the digest.
 */
export const mailDigestItems = pgTable(
  'mail_digest_items',
  {
    itemId: integer('item_id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    kind: text('kind', { enum: mailKinds }).notNull(),
    template: text('template').notNull(),
    variables: jsonb('variables').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('mail_digest_items_user_idx').on(table.userId, table.createdAt)],
);

// ---------------------------------------------------------------------------- resumable uploads

/**
 * A file sent through tus (docs/decisions/uploads.md § Resumable uploads): who made it, what it
 * declared, and once finished its SHA-256 and content kind; a case that names it claims it.
 * The bytes live in storage at `storageKey`; unclaimed uploads are removed after 24 hours.
 */
export const uploads = pgTable(
  'uploads',
  {
    uploadId: text('upload_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId),
    fileName: text('file_name').notNull(),
    declaredSize: bigint('declared_size', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull().unique(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    sha256: text('sha256'),
    /** The file's kind by its name and content (stl, zip, rar, jpeg, png), null when it is none of them. */
    contentKind: text('content_kind'),
    claimedByCaseId: integer('claimed_by_case_id').references(() => cases.caseId),
    claimedByDraftId: integer('claimed_by_draft_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('uploads_created_idx').on(table.createdAt),
    // What a user holds that no case has used yet, counted at each new upload (UPLOADS_PER_USER).
    index('uploads_open_user_idx')
      .on(table.userId)
      .where(sql`${table.claimedByCaseId} is null`),
  ],
);

// ---------------------------------------------------------------------------- case drafts

/**
 * The case form as its writer left it (docs/decisions/case-form.md § Drafts): owned by the signed-in
 * user who typed it (a doctor, or staff writing for a doctor picked in `doctor_user_id`).
 * `fields` holds the form's values by submission name, each checked by its own rule;
 * `files` maps the form's file fields to resumable-upload ids, opaque here.
 */
export const caseDrafts = pgTable(
  'case_drafts',
  {
    draftId: integer('draft_id').primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.userId),
    doctorUserId: integer('doctor_user_id').references(() => users.userId),
    fields: jsonb('fields').notNull(),
    files: jsonb('files').notNull(),
    step: integer('step').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('case_drafts_owner_updated').on(table.ownerUserId, table.updatedAt)],
);

/**
 * A live user's role. The column is null only for a deleted user whose role was deleted
 * after them (docs/decisions/access.md § Roles), and reads of live users never see that.
 */
export const liveRoleId = sql<number>`${users.roleId}`.mapWith(users.roleId);

// ---------------------------------------------------------------------------- the lab's settings

/**
 * The lab's settings (docs/decisions/settings.md): one row, id 1, written at the first start from
 * the environment and then by the administrator; its value is checked by the contract's
 * `labSettings` whenever it is read or written.
 */
export const labSettingsTable = pgTable(
  'lab_settings',
  {
    id: integer('id').primaryKey().default(1),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.userId),
  },
  (table) => [check('lab_settings_one_row', sql`${table.id} = 1`)],
);

// ---------------------------------------------------------------------------- progress scans

export const progressScanStates = ['queued', 'running', 'done', 'failed'] as const;

/**
 * A mid-treatment scan of a case compared with its approved plan's stage, tooth by tooth
 * (docs/decisions/progress-scans.md): the scan's STLs in storage (`progress/…`), the stage
 * worn, and once the background job has fitted it, its result (`arches`) or why not (`reason`).
 */
export const progressScans = pgTable(
  'progress_scans',
  {
    progressScanId: integer('progress_scan_id').primaryKey().generatedAlwaysAsIdentity(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.caseId),
    planId: integer('plan_id')
      .notNull()
      .references(() => treatmentPlans.planId),
    stage: integer('stage').notNull(),
    state: text('state', { enum: progressScanStates }).notNull().default('queued'),
    reason: text('reason'),
    // The reason by its code and values (packages/contract/src/server-messages.ts): each reader sees it in their language.
    reasonCode: text('reason_code'),
    reasonParams: jsonb('reason_params').$type<Record<string, string | number>>(),
    upperKey: text('upper_key').unique(),
    upperBytes: bigint('upper_bytes', { mode: 'number' }),
    lowerKey: text('lower_key').unique(),
    lowerBytes: bigint('lower_bytes', { mode: 'number' }),
    /** Each arch's viewing copy in the plan's frame, made when the fit succeeds (meshes/progress-view.ts), beside its scan. */
    upperViewKey: text('upper_view_key'),
    upperViewBytes: bigint('upper_view_bytes', { mode: 'number' }),
    lowerViewKey: text('lower_view_key'),
    lowerViewBytes: bigint('lower_view_bytes', { mode: 'number' }),
    /** Per arch sent, once done: { arch, rmsMm, anchorTeeth, teeth, notInView } (the contract's progressScanArch). */
    arches: jsonb('arches').$type<unknown[]>(),
    uploadedBy: integer('uploaded_by')
      .notNull()
      .references(() => users.userId),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('progress_scans_case_created').on(table.caseId, table.createdAt),
    check('progress_scans_state_check', sql`${table.state} in ('queued', 'running', 'done', 'failed')`),
    check('progress_scans_some_arch', sql`${table.upperKey} is not null or ${table.lowerKey} is not null`),
  ],
);
