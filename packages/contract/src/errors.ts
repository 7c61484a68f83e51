import type { z } from 'zod';
import type { ServerMessageParams } from './server-messages.ts';

/**
 * Every 4xx answer: a message for a toast, and per-field messages for forms. A refusal whose
 * words the server puts together also names its `code` (a key of `serverMessages`) and the
 * `params` that fill it in, so that the web app shows it in the reader's language.
 */
export interface ErrorResponse {
  message: string;
  fieldErrors?: Record<string, string>;
  code?: string;
  params?: ServerMessageParams;
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
