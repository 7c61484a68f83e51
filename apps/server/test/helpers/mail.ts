/**
 * A raw message as a reader sees it: quoted-printable (soft line breaks and =XX, which
 * mailers use for long lines such as reset links) undone when the message uses it.
 */
export function readableMail(raw: string): string {
  if (!/Content-Transfer-Encoding: quoted-printable/i.test(raw)) return raw;
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every reset-password token linked from a text or a raw message, in order, without duplicates. */
export function resetTokensIn(text: string, publicUrl = 'http://portal.test'): string[] {
  const escaped = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}/reset-password\\?token=([A-Za-z0-9_-]+)`, 'g');
  return [...new Set([...readableMail(text).matchAll(pattern)].map((match) => match[1]!))];
}
