import type { z } from 'zod';

/** Every 4xx answer: a message for a toast, and per-field messages for forms. */
export interface ErrorResponse {
  message: string;
  fieldErrors?: Record<string, string>;
}

/** The first message of each field, keyed by its dotted path ('clinicList.0.cityId'). */
export function toFieldErrors(error: z.ZodError): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}
