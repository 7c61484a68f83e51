import { z } from 'zod';
import {
  currentPassword,
  email,
  nameText,
  optionalPassword,
  passwordsMatchMessage,
  requiredId,
  requiredMessage,
  requiredText,
  userType,
  username,
} from './fields.ts';
import { locale } from './locale-schema.ts';

export const mobileNo = requiredText('Mobile No', 30).regex(/^\+?[\d\s()-]{4,30}$/, 'Mobile No is not valid');

const webUserFields = {
  username,
  firstname: nameText('First Name'),
  lastname: nameText('Last Name'),
  email,
  mobileNo,
  roleId: requiredId('Role is required', 'Role is not valid'),
};

/**
 * POST /user/add (multipart, profilePic travels as a file part). Without a password the new
 * user is e-mailed an invitation to set their own (docs/decisions/accounts.md § Lab staff invited by e-mail).
 */
export const userAddRequest = z.object({
  ...webUserFields,
  password: optionalPassword,
  userType: z.literal('Web').default('Web'),
  /** The new user's language, `en` when not given (docs/decisions/languages.md § The user's language on the server). */
  locale: locale.optional(),
});
export type UserAddRequest = z.infer<typeof userAddRequest>;

/** PUT /user/edit/{id}: an empty password keeps the current one. */
export const userEditRequest = z.object({ ...webUserFields, password: optionalPassword, currentPassword });
export type UserEditRequest = z.infer<typeof userEditRequest>;

const confirmPassword = z.string({ error: requiredMessage('Confirm Password') });

/**
 * The Users screen form: everything but the picture and the password is required (a new user
 * sets their own from an invitation; an edit keeps the password when empty). The password checks run
 * even while other fields are invalid, so a mismatch shows as soon as it is typed.
 */
export const userForm = z
  .object({ ...webUserFields, password: optionalPassword, confirmPassword, isEdit: z.boolean() })
  .superRefine(
    (form, ctx) => {
      if (form.password !== '' && form.confirmPassword === '') {
        ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: requiredMessage('Confirm Password') });
      } else if (form.password !== form.confirmPassword) {
        ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: passwordsMatchMessage });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );

export const user = z.object({
  UserId: z.number(),
  UserName: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string(),
  MobileNo: z.string(),
  RoleId: z.number(),
  RoleName: z.string().nullable(),
  ProfilePic: z.string().nullable(),
  createdAt: z.string(),
  userType,
});
export type User = z.infer<typeof user>;

export const userMessages = {
  added: 'User added successfully',
  invited: 'User added; an e-mail invites them to set their password (the link lasts 7 days)',
} as const;

// Without zod (admin-email.ts), for the signed-in shell's banner.
export { unsetAdminEmail } from './admin-email.ts';
