import { inflateSync } from 'node:zlib';

interface PdfObject {
  dictionary: string;
  stream?: string;
}

/** Every `N 0 obj` of a PDF by number: its dictionary and its stream, inflated when Flate encoded. */
function pdfObjects(pdf: Buffer): Map<number, PdfObject> {
  const source = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const starts = /(\d+) 0 obj\s*/g;
  for (let match = starts.exec(source); match; match = starts.exec(source)) {
    const begin = match.index + match[0].length;
    const end = source.indexOf('endobj', begin);
    const body = source.slice(begin, end);
    const streamAt = /stream\r?\n/.exec(body);
    if (!streamAt) {
      objects.set(Number(match[1]), { dictionary: body });
      continue;
    }
    const dictionary = body.slice(0, streamAt.index);
    const dataStart = begin + streamAt.index + streamAt[0].length;
    const data = pdf.subarray(dataStart, source.indexOf('endstream', dataStart));
    let stream: string | undefined;
    try {
      stream = (dictionary.includes('/FlateDecode') ? inflateSync(data) : data).toString('latin1');
    } catch {
      stream = undefined;
    }
    objects.set(Number(match[1]), { dictionary, stream });
  }
  return objects;
}

const hexToText = (hex: string) => {
  const units: number[] = [];
  for (let index = 0; index + 4 <= hex.length; index += 4) units.push(parseInt(hex.slice(index, index + 4), 16));
  return String.fromCharCode(...units);
};

/** A ToUnicode CMap as pdfkit writes it (`<start> <end> [<unicode> ...]` ranges): glyph code to text. */
function readCMap(cmap: string): Map<number, string> {
  const codes = new Map<number, string>();
  for (const range of cmap.matchAll(/<([0-9a-fA-F]+)>\s*<[0-9a-fA-F]+>\s*\[([^\]]*)\]/g)) {
    const start = parseInt(range[1]!, 16);
    [...range[2]!.matchAll(/<([0-9a-fA-F ]*)>/g)].forEach((entry, offset) =>
      codes.set(start + offset, hexToText(entry[1]!.replace(/ /g, ''))),
    );
  }
  return codes;
}

/** Font resource names (`/F1`) of the fonts written with a ToUnicode CMap (pdfkit's Identity-H fonts). */
function unicodeFonts(objects: Map<number, PdfObject>): Map<string, Map<number, string>> {
  const fonts = new Map<string, Map<number, string>>();
  for (const { dictionary } of objects.values()) {
    for (const reference of dictionary.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const font = objects.get(Number(reference[2]));
      const toUnicode = font && /\/ToUnicode (\d+) 0 R/.exec(font.dictionary);
      const cmap = toUnicode && objects.get(Number(toUnicode[1]))?.stream;
      if (cmap) fonts.set(reference[1]!, readCMap(cmap));
    }
  }
  return fonts;
}

/**
 * The text a PDF written by pdfkit shows, one string per text object: each content stream
 * is read in order, its font changes (`/F1 8 Tf`) followed and the hex strings of its TJ
 * arrays joined. Embedded fonts (Identity-H) write two-byte glyph codes, read back through
 * the font's ToUnicode CMap; the standard fonts write Windows-1252 bytes.
 */
export function pdfText(pdf: Buffer): string[] {
  const objects = pdfObjects(pdf);
  const fonts = unicodeFonts(objects);
  const texts: string[] = [];
  for (const { stream } of objects.values()) {
    if (!stream) continue;
    let cmap: Map<number, string> | undefined;
    for (const operation of stream.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\]\s*TJ/g)) {
      if (operation[1]) {
        cmap = fonts.get(operation[1]);
        continue;
      }
      const hex = [...operation[2]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1]).join('');
      if (!cmap) {
        texts.push(Buffer.from(hex, 'hex').toString('latin1'));
        continue;
      }
      let text = '';
      for (let index = 0; index + 4 <= hex.length; index += 4)
        text += cmap.get(parseInt(hex.slice(index, index + 4), 16)) ?? '\ufffd';
      texts.push(text);
    }
  }
  return texts;
}
