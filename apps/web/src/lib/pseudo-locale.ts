import type { Messages } from '@lingui/core';

/**
 * The pseudo-locale (docs/quality/languages.md § The pseudo-locale): English with every letter accented, 40%
 * longer and a short label doubled, in brackets. Text still in plain English was not
 * translated; text whose closing bracket is hidden was cut by its box. Made from the English
 * catalog as the browser asks for it, so it never falls behind.
 */
const accented: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index]!,
  ]),
);
const shortLabel = 8;
const longer = 0.4;

const accent = (text: string) => text.replace(/[a-zA-Z]/g, (letter) => accented[letter]!);

type Compiled = string | Token[];
type Token = string | [name: string, type?: string, format?: unknown];

/** A plural's or select's choices: each branch accented, offsets and placeholders kept. */
function accentChoices(format: unknown): unknown {
  if (!format || typeof format !== 'object') return format;
  return Object.fromEntries(
    Object.entries(format).map(([key, branch]) => [key, Array.isArray(branch) ? branch.map(accentToken) : branch]),
  );
}

function accentToken(token: Token): Token {
  if (typeof token === 'string') return accent(token);
  const [name, type, format] = token;
  return type === 'plural' || type === 'select' || type === 'selectordinal'
    ? [name, type, accentChoices(format)]
    : token;
}

const visibleLength = (tokens: Token[]) =>
  tokens.reduce((length, token) => length + (typeof token === 'string' ? token.length : 4), 0);

/** Dots in words of five: longer text that still wraps, as a real language's would. */
const padding = (length: number) => ('·····'.repeat(Math.ceil(length / 5)).slice(0, length).match(/.{1,5}/g) ?? []).join(' ');

function pseudoMessage(message: Compiled): Token[] {
  const tokens = (typeof message === 'string' ? [message] : message).map(accentToken);
  const length = visibleLength(tokens);
  if (length === 0) return tokens;
  const onlyText = tokens.every((token) => typeof token === 'string');
  const body: Token[] =
    onlyText && length <= shortLabel
      ? [...tokens, ' ', ...tokens]
      : [...tokens, ' ', padding(Math.max(1, Math.round(length * longer)))];
  return ['[', ...body, ']'];
}

export function pseudolocalize(messages: Messages): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([id, message]) => [id, pseudoMessage(message as Compiled)]),
  ) as Messages;
}
