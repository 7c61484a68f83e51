import { inflateSync } from 'node:zlib';

/**
 * The text a PDF written by pdfkit shows, one string per text object: each Flate content
 * stream is inflated and the hex strings of its TJ arrays joined (pdfkit writes every
 * run of text as `[<hex> kerning <hex> ...] TJ` in Windows-1252).
 */
export function pdfText(pdf: Buffer): string[] {
  const texts: string[] = [];
  const source = pdf.toString('latin1');
  const streams = /\/FlateDecode[^>]*>>\s*stream\r?\n/g;
  for (let match = streams.exec(source); match; match = streams.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1]).join('');
      texts.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return texts;
}
