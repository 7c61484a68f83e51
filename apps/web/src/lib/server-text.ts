import type { ApiError } from '@portal/contract/client';
import type { ServerMessageParams } from '@portal/contract/server-messages';
import { i18n } from './i18n.ts';

/**
 * A text in the spec's English that did not come through a macro: the contract's messages
 * (its schemas' field messages, `messages.*`) and the server's answers. The catalogs hold
 * each under its English words as its id (lingui/contract-messages.ts extracts the contract's),
 * so it shows translated when the language has it, and as it came otherwise.
 */
export function serverText(english: string): string;
export function serverText(english: string | undefined): string | undefined;
export function serverText(english: string | undefined): string | undefined {
  // As written when the language has no translation (English has no catalog): a text, not ICU.
  return english ? i18n._(english, undefined, { message: [english] as unknown as string }) : english;
}

/**
 * The server's per-field messages (an ApiError's `fieldErrors`), each in the language shown. A
 * field's message that repeats a coded refusal's (`Send one upper scan` under `upper`) is put
 * together from its template, as the refusal is; the others are the contract's fixed texts.
 */
export const serverFieldErrors = ({ fieldErrors, message: refusal, code, params }: ApiError): Record<string, string> =>
  Object.fromEntries(
    Object.entries(fieldErrors).map(([field, message]) => [
      field,
      code && message === refusal ? serverRefusalText(message, code, params) : serverText(message),
    ]),
  );

/**
 * A refusal the server put together at run time (issue 43): the catalogs hold the template of
 * its `code` (the contract's `serverMessages`) under the id `server.<code>`, so the web app needs
 * no templates of its own; its `params` fill it in, each word the contract lists (`Case`, a
 * status, an arch) shown through `serverText` too. Without a code, or in a language without the
 * template (English), the server's own text.
 */
export function serverRefusalText(english: string, code?: string, params?: ServerMessageParams): string {
  const id = `server.${code}`;
  if (!code || !i18n.messages[id]) return serverText(english);
  const shown = Object.fromEntries(
    Object.entries(params ?? {}).map(([name, value]) => [name, typeof value === 'string' ? serverText(value) : value]),
  );
  return i18n._(id, shown);
}
