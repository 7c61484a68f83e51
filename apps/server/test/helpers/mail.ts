const decodeQuotedPrintable = (body: string) =>
  body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A raw message as a reader sees it: each part in quoted-printable (soft line breaks and =XX,
 * which mailers use for long lines such as reset links) decoded, and only those: in a 7bit
 * part, `?token=AB…` is text, not an escape. A decoded part is relabelled 8bit, so that a
 * message read twice is not decoded twice (a token starting "E0" would lose its first bytes).
 */
export function readableMail(raw: string): string {
  return raw
    .split(/(^--\S+\r?$)/m)
    .map((section) => {
      const headerEnd = section.search(/\r?\n\r?\n/);
      if (headerEnd < 0) return section;
      const headers = section.slice(0, headerEnd);
      if (!/^Content-Transfer-Encoding:\s*quoted-printable/im.test(headers)) return section;
      const relabelled = headers.replace(/^(Content-Transfer-Encoding:\s*)quoted-printable/im, '$18bit');
      return relabelled + decodeQuotedPrintable(section.slice(headerEnd));
    })
    .join('');
}

/** Every reset-password token linked from a text or a raw message, in order, without duplicates. */
export function resetTokensIn(text: string, publicUrl = 'http://portal.test'): string[] {
  const escaped = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}/reset-password\\?token=([A-Za-z0-9_-]+)`, 'g');
  return [...new Set([...readableMail(text).matchAll(pattern)].map((match) => match[1]!))];
}
