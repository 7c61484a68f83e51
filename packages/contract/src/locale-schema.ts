import { z } from 'zod';
import { localeMessages, supportedLocales } from './locales.ts';

/** A language a user may keep on their account (`PUT /api/account/locale`, registration). */
export const locale = z.enum(supportedLocales, { error: localeMessages.unsupported });

/** `PUT /api/account/locale`: the caller's language (docs/decisions/languages.md § The user's language on the server). */
export const accountLocale = z.object({ locale });
/** `GET` and `PUT /api/account/locale`: the language stored on the caller's account. */
export const accountLocaleAnswer = z.object({ locale });
