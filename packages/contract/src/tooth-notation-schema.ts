import { z } from 'zod';

/** The tooth notations a user may choose to read teeth in (issue 43); the case's own numbering stays a prescription field. */
export const toothNotations = ['FDI', 'Universal', 'Palmer'] as const;
export type ToothNotation = (typeof toothNotations)[number];

export const toothNotationMessages = {
  unsupported: "Tooth notation must be one of 'FDI', 'Universal' or 'Palmer'",
} as const;

/** The notation until the user chooses one: Universal for a clinic in the United States, FDI elsewhere. */
export const defaultToothNotation = (countryIsoCode: string | null | undefined): ToothNotation =>
  countryIsoCode === 'US' ? 'Universal' : 'FDI';

export const toothNotation = z.enum(toothNotations, { error: toothNotationMessages.unsupported });

/** `PUT /api/account/tooth-notation`: the caller's tooth notation (docs/decisions/tooth-notation.md). */
export const accountToothNotation = z.object({ toothNotation });
/** `GET` and `PUT /api/account/tooth-notation`: the caller's notation, the default when not chosen. */
export const accountToothNotationAnswer = z.object({ toothNotation });
