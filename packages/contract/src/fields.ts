import { z } from 'zod';

/** The spec's generic message for a required field (docs/spec.md section 5). */
export const requiredMessage = (label: string) => `${label} is required`;

const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** Required text: whitespace-only counts as empty; trimmed before use. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: requiredMessage(label) })
    .trim()
    .min(1, requiredMessage(label))
    .max(max, `${label} must be at most ${max} characters`);

/** Optional text: missing, null and blank all become an empty string. */
export const optionalText = (label: string, max = 500) =>
  z.preprocess(
    (value) => blankToUndefined(value) ?? '',
    z
      .string({ error: `${label} is not valid` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`),
  );

/** A required whole-number id; multipart sends numbers as strings. Ids past int4 are `invalid`. */
export const requiredId = (message: string, invalid = message) =>
  z.preprocess(
    (value) => {
      const present = blankToUndefined(value);
      return typeof present === 'string' ? Number(present) : present;
    },
    z.number({ error: message }).int(message).min(-2147483648, invalid).max(2147483647, invalid),
  );

export const optionalId = (label: string) =>
  z.preprocess(
    (value) => {
      const present = blankToUndefined(value);
      return typeof present === 'string' ? Number(present) : (present ?? null);
    },
    z
      .number({ error: `${label} is not valid` })
      .int(`${label} is not valid`)
      .min(-2147483648, `${label} is not valid`)
      .max(2147483647, `${label} is not valid`)
      .nullable(),
  );

/** Booleans in multipart bodies accept true/false/1/0 (docs/decisions.md § Booleans in forms). */
export const booleanField = (label: string) =>
  z.preprocess(
    (value) => {
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
      return blankToUndefined(value);
    },
    z.boolean({ error: requiredMessage(label) }),
  );

export const username = requiredText('Username', 50).min(3, 'Username must be at least 3 characters');

export const email = requiredText('Email', 254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Email is not valid');

/** Passwords are never trimmed, but whitespace-only counts as empty. */
export const password = z
  .string({ error: requiredMessage('Password') })
  .refine((value) => value.trim().length > 0, requiredMessage('Password'))
  .refine((value) => value.length >= 6, 'Password must be at least 6 characters')
  .refine((value) => value.length <= 128, 'Password must be at most 128 characters');

/** In edit forms an empty password leaves the stored one as it is. */
export const optionalPassword = z.preprocess(
  (value) => (value === undefined || value === null ? '' : value),
  z.union([z.literal(''), password]),
);

export const passwordsMatchMessage = 'Passwords do not match';

export const gender = z.enum(['Male', 'Female', 'Other'], { error: 'Gender is required' });
export const genderOptions = gender.options;

export const userType = z.enum(['Web', 'Doctor']);
export type UserType = z.infer<typeof userType>;
