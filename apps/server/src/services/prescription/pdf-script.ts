import { isRightToLeft, type Locale } from '@portal/contract';
import bidiFactory from 'bidi-js';
import { readFileSync } from 'node:fs';
import { fonts, page, printable, scriptFonts } from './pdf-layout.ts';

/**
 * Text in any script for pdfkit (docs/decisions/languages.md § The prescription PDF in every
 * script). pdfkit shapes through fontkit (Arabic joining and lam-alef included) but has no
 * bidi and one font per call, and it lays out a string word by word, left to right. So text
 * that is not plain left-to-right DejaVu is set here: the Unicode bidi algorithm (bidi-js)
 * gives each character its level, lines are broken in logical order, each line's runs are
 * put in visual order (rule L2) and each run is drawn by pdfkit as one piece in its own font
 * (Arabic: Noto Naskh Arabic, Chinese: Noto Sans SC, the rest DejaVu Sans), which fontkit
 * shapes and, for Arabic, lays right to left. A right-to-left document is also mirrored: x
 * and boxes are read from the right edge of the page.
 *
 * Left-to-right text in DejaVu alone goes to pdfkit exactly as before, so an English
 * prescription is the same PDF as it was.
 */

const bidi = bidiFactory();

export type Weight = 'regular' | 'bold';
type Script = 'latin' | 'arabic' | 'han';

export interface TextStyle {
  weight: Weight;
  size: number;
  /** Left as it is when not given (the text before set it). */
  color?: string;
  characterSpacing?: number;
}

export interface TextBox {
  width?: number;
  align?: 'left' | 'right' | 'center';
  lineBreak?: boolean;
  /** Not mirrored in a right-to-left document (the tooth chart, a picture of the mouth). */
  fixed?: boolean;
}

const isArabic = (code: number) =>
  (code >= 0x0600 && code <= 0x06ff) ||
  (code >= 0x0750 && code <= 0x077f) ||
  (code >= 0x08a0 && code <= 0x08ff) ||
  (code >= 0xfb50 && code <= 0xfdff) ||
  (code >= 0xfe70 && code <= 0xfeff);

const isHan = (code: number) =>
  (code >= 0x2e80 && code <= 0x2fdf) ||
  (code >= 0x3000 && code <= 0x30ff) ||
  (code >= 0x3100 && code <= 0x31ff) ||
  (code >= 0x3400 && code <= 0x4dbf) ||
  (code >= 0x4e00 && code <= 0x9fff) ||
  (code >= 0xf900 && code <= 0xfaff) ||
  (code >= 0xfe30 && code <= 0xfe4f) ||
  (code >= 0xff00 && code <= 0xffef) ||
  (code >= 0x20000 && code <= 0x3ffff);

/** Characters any font draws (spaces, punctuation, digits): they take the font of the text around them. */
const isNeutral = (char: string) => /^[\s\p{P}\p{S}\p{N}]$/u.test(char) && !isHan(char.codePointAt(0)!);

const scriptOf = (char: string): Script => {
  const code = char.codePointAt(0)!;
  return isArabic(code) ? 'arabic' : isHan(code) ? 'han' : 'latin';
};

/** A line break may follow a space, and come before or after a Chinese character. */
const breaksAfter = (text: string, index: number) => {
  const here = text.codePointAt(index)!;
  const next = text.codePointAt(index + 1);
  if (/\s/.test(text[index]!)) return true;
  return next !== undefined && (isHan(here) || isHan(next)) && !/[，。、；：！？）》」』]/.test(text[index + 1]!);
};

/** The plain case: no right-to-left, nothing DejaVu cannot draw. */
const isPlain = (text: string) => {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (isArabic(code) || isHan(code) || bidi.getBidiCharTypeName(char) === 'R') return false;
  }
  return true;
};

const fontFiles = new Map<string, Buffer>();
const fontFile = (file: string) => {
  let data = fontFiles.get(file);
  if (!data) fontFiles.set(file, (data = readFileSync(file)));
  return data;
};

/**
 * A TrueType file pdfkit takes for another font: pdfkit shares one font object between files
 * whose head checksum and names are equal, so the copy's checksum is changed (pdfkit writes
 * its subset anew, and fontkit does not check it).
 */
const distinctCopy = (file: string) => {
  const key = `${file}#distinct`;
  let data = fontFiles.get(key);
  if (!data) {
    data = Buffer.from(fontFile(file));
    const tables = data.readUInt16BE(4);
    for (let index = 0; index < tables; index++) {
      const record = 12 + index * 16;
      if (data.toString('latin1', record, record + 4) !== 'head') continue;
      const head = data.readUInt32BE(record + 8);
      data.writeUInt32BE((data.readUInt32BE(head + 8) ^ 1) >>> 0, head + 8);
    }
    fontFiles.set(key, data);
  }
  return data;
};

interface Piece {
  text: string;
  level: number;
  script: Script;
}

/** pdfkit's font object: the ascender (per 1000 em) puts each font's baseline on one line. */
type WithFont = PDFKit.PDFDocument & { _font: { ascender: number } };

export class PdfText {
  readonly rtl: boolean;
  private readonly registered = new Set<string>();

  readonly doc: PDFKit.PDFDocument;
  readonly locale: Locale;

  constructor(doc: PDFKit.PDFDocument, locale: Locale) {
    this.doc = doc;
    this.locale = locale;
    this.rtl = isRightToLeft(locale);
  }

  /**
   * Before `doc.end()`: an Arabic ligature (lam-alef) maps back to its letters in visual order,
   * alef then lam. A reader of the PDF's text (pdftotext, a viewer's search) takes a right-to-left
   * line's glyphs from the right and reverses each glyph's text with them, so a ligature
   * written lam-alef came back alef-lam (علاج read عالج).
   */
  finish(): void {
    const families = (this.doc as unknown as { _fontFamilies: Record<string, { name: string; unicode: number[][] }> })
      ._fontFamilies;
    for (const font of new Set(Object.values(families))) {
      if (!/Naskh/.test(font.name)) continue;
      font.unicode.forEach((codePoints, glyph) => {
        if (codePoints && codePoints.length > 1 && codePoints.every(isArabic))
          font.unicode[glyph] = [...codePoints].reverse();
      });
    }
    // The signs of a right-to-left run are drawn mirrored, in a copy of DejaVu of their own: each
    // mirrored glyph maps back to the character that was written, ')' drawn for '(' reads '('.
    for (const [name, font] of Object.entries(families)) {
      if (!name.startsWith('mirrored-')) continue;
      font.unicode.forEach((codePoints, glyph) => {
        const mirrored = codePoints?.length === 1 && bidi.getMirroredCharacter(String.fromCodePoint(codePoints[0]!));
        if (mirrored) font.unicode[glyph] = [mirrored.codePointAt(0)!];
      });
    }
  }

  /** A box's left edge as drawn: mirrored across the page in a right-to-left document. */
  x(x: number, width = 0): number {
    return this.rtl ? page.width - x - width : x;
  }

  /** Upper case by the language's rules (Turkish i is İ). */
  upper(text: string): string {
    return text.toLocaleUpperCase(this.locale);
  }

  private useFont(script: Script, weight: Weight): void {
    if (script === 'latin') {
      this.doc.font(fonts[weight]);
      return;
    }
    const name = `${script}-${weight}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, fontFile(scriptFonts[script][weight]));
      this.registered.add(name);
    }
    this.doc.font(name);
  }

  /** DejaVu again, as a font of its own whose ToUnicode map finish() mirrors back. */
  private useMirrored(weight: Weight): void {
    const name = `mirrored-${weight}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, distinctCopy(fonts[weight]));
      this.registered.add(name);
    }
    this.doc.font(name);
  }

  private ascender(script: Script, weight: Weight): number {
    this.useFont(script, weight);
    return (this.doc as WithFont)._font.ascender;
  }

  private pieceWidth(piece: Piece, style: TextStyle): number {
    this.useFont(piece.script, style.weight);
    return this.doc.fontSize(style.size).widthOfString(piece.text, { features: [] } as PDFKit.Mixins.TextOptions);
  }

  /** The pieces of `text` (a slice of a paragraph whose levels are `levels`, from `offset`): level and script runs. */
  private pieces(text: string, levels: Uint8Array, offset: number): Piece[] {
    const pieces: Piece[] = [];
    let index = 0;
    for (const char of text) {
      const level = levels[offset + index]!;
      const last = pieces.at(-1);
      let script = scriptOf(char);
      // A neutral keeps the font of the text before it; in Arabic only a space does (fontkit lays
      // an Arabic run out right to left; other signs are reversed and mirrored here, in DejaVu).
      if (isNeutral(char) && last?.level === level)
        script = last.script === 'arabic' && !/\s/.test(char) ? 'latin' : last.script;
      if (last && last.level === level && last.script === script) last.text += char;
      else pieces.push({ text: char, level, script });
      index += char.length;
    }
    return pieces;
  }

  /** Pieces in visual order (rule L2): from the highest level down to the lowest odd one, reverse each run at or above it. */
  private static visual(pieces: Piece[]): Piece[] {
    const ordered = [...pieces];
    const levels = ordered.map((piece) => piece.level);
    const highest = Math.max(0, ...levels);
    const lowestOdd = Math.min(...levels.filter((level) => level % 2 === 1), highest + 1);
    for (let level = highest; level >= lowestOdd; level--) {
      for (let start = 0; start < ordered.length; start++) {
        if (ordered[start]!.level < level) continue;
        let end = start;
        while (end + 1 < ordered.length && ordered[end + 1]!.level >= level) end++;
        const run = ordered.slice(start, end + 1).reverse();
        ordered.splice(start, run.length, ...run);
        start = end;
      }
    }
    return ordered;
  }

  /** A paragraph's lines: [start, end) ranges broken where the text no longer fits `width`. */
  private lines(
    paragraph: string,
    levels: Uint8Array,
    style: TextStyle,
    width: number | undefined,
  ): [number, number][] {
    if (width === undefined || paragraph.length === 0) return [[0, paragraph.length]];
    const measure = (start: number, end: number) =>
      this.pieces(paragraph.slice(start, end), levels, start).reduce(
        (sum, piece) => sum + this.pieceWidth(piece, style),
        0,
      );
    // The paragraph cut where a line may break, each part measured once (with and without its
    // trailing spaces, which a line's end drops); Arabic does not join across a break.
    const parts: { start: number; end: number; width: number; bare: number }[] = [];
    for (let start = 0, index = 0; index < paragraph.length; index++) {
      if (index + 1 < paragraph.length && !breaksAfter(paragraph, index)) continue;
      const end = index + 1;
      const bareEnd = start + paragraph.slice(start, end).trimEnd().length;
      const bare = measure(start, bareEnd);
      parts.push({ start, end, bare, width: bareEnd === end ? bare : bare + measure(bareEnd, end) });
      start = end;
    }
    const lines: [number, number][] = [];
    let lineStart = 0;
    let lineWidth = 0;
    for (const part of parts) {
      if (lineWidth > 0 && lineWidth + part.bare > width) {
        lines.push([lineStart, part.start]);
        lineStart = part.start;
        lineWidth = 0;
      }
      if (lineWidth === 0 && part.bare > width) {
        // A word longer than the line: cut between characters.
        let cut = part.start;
        for (let end = part.start + 1; end <= part.end; end++) {
          if (end - cut > 1 && measure(cut, end) > width) {
            lines.push([cut, end - 1]);
            cut = end - 1;
          }
        }
        lineStart = cut;
        lineWidth = measure(cut, part.end);
        continue;
      }
      lineWidth += part.width;
    }
    if (lineStart < paragraph.length) lines.push([lineStart, paragraph.length]);
    return lines;
  }

  private lineHeight(style: TextStyle): number {
    this.doc.font(fonts[style.weight]).fontSize(style.size);
    return this.doc.currentLineHeight(true);
  }

  /** Each paragraph's levels and lines. */
  private layout(text: string, style: TextStyle, width: number | undefined) {
    return printable(text)
      .split('\n')
      .flatMap((paragraph) => {
        const { levels, paragraphs } = bidi.getEmbeddingLevels(paragraph);
        const rightToLeft = (paragraphs[0]?.level ?? 0) % 2 === 1;
        return this.lines(paragraph, levels, style, width).map(([start, end]) => ({
          paragraph,
          levels,
          rightToLeft,
          start,
          end,
        }));
      });
  }

  private plainOptions(style: TextStyle, box: TextBox): PDFKit.Mixins.TextOptions {
    const options: PDFKit.Mixins.TextOptions = {};
    if (box.width !== undefined) options.width = box.width;
    if (box.align !== undefined) options.align = box.align;
    if (style.characterSpacing !== undefined) options.characterSpacing = style.characterSpacing;
    if (box.lineBreak !== undefined) options.lineBreak = box.lineBreak;
    return options;
  }

  /** The height `text` takes in a box `width` wide. */
  height(text: string, style: TextStyle, width: number): number {
    if (!this.rtl && isPlain(text)) {
      this.doc.font(fonts[style.weight]).fontSize(style.size);
      return this.doc.heightOfString(text, { width });
    }
    return this.layout(text, style, width).length * this.lineHeight(style);
  }

  /** The width of one line of `text`. */
  width(text: string, style: TextStyle): number {
    this.doc.font(fonts[style.weight]).fontSize(style.size);
    if (!this.rtl && isPlain(text)) return this.doc.widthOfString(text);
    const { levels } = bidi.getEmbeddingLevels(text);
    return this.pieces(text, levels, 0).reduce((sum, piece) => sum + this.pieceWidth(piece, style), 0);
  }

  /**
   * Draws `text` with its top at y, from x (the box's left edge in a left-to-right document,
   * its mirror in a right-to-left one, where left and right alignment swap too).
   */
  text(text: string, x: number, y: number, style: TextStyle, box: TextBox = {}): void {
    const { doc } = this;
    if (style.color !== undefined) doc.fillColor(style.color);
    if (!this.rtl && isPlain(text)) {
      doc.font(fonts[style.weight]).fontSize(style.size).text(text, x, y, this.plainOptions(style, box));
      return;
    }
    const mirrored = this.rtl && !box.fixed;
    const swapped = mirrored
      ? ({ left: 'right', right: 'left', center: 'center' } as const)[box.align ?? 'left']
      : box.align;
    const left = box.width === undefined ? (mirrored ? page.width - x : x) : mirrored ? this.x(x, box.width) : x;
    const wrapWidth = box.lineBreak === false ? undefined : box.width;
    const lineHeight = this.lineHeight(style);
    const baseAscender = this.ascender('latin', style.weight);
    this.layout(text, style, wrapWidth).forEach(({ paragraph, levels, rightToLeft, start, end }, line) => {
      // Unaligned, a right-to-left paragraph in a left-to-right page starts at its box's right.
      const align = swapped ?? (rightToLeft ? 'right' : 'left');
      const pieces = PdfText.visual(this.pieces(paragraph.slice(start, end).trimEnd(), levels, start));
      const widths = pieces.map((piece) => this.pieceWidth(piece, style));
      const lineWidth = widths.reduce((sum, next) => sum + next, 0);
      let cursor =
        box.width === undefined
          ? mirrored
            ? left - lineWidth
            : left
          : align === 'right'
            ? left + box.width - lineWidth
            : align === 'center'
              ? left + (box.width - lineWidth) / 2
              : left;
      const top = y + line * lineHeight;
      pieces.forEach((piece, index) => {
        // A right-to-left run without Arabic letters (spaces, signs, digits' neighbours): reversed and mirrored here.
        const shown =
          piece.level % 2 === 1 && piece.script !== 'arabic'
            ? [...piece.text]
                .reverse()
                .map((char) => bidi.getMirroredCharacter(char) ?? char)
                .join('')
            : piece.text;
        const lift = ((baseAscender - this.ascender(piece.script, style.weight)) / 1000) * style.size;
        const hasMirrored = [...piece.text].some((char) => bidi.getMirroredCharacter(char));
        if (piece.level % 2 === 1 && piece.script === 'latin' && hasMirrored) this.useMirrored(style.weight);
        doc.fontSize(style.size).text(shown, cursor, top + lift, {
          lineBreak: false,
          features: [],
        } as PDFKit.Mixins.TextOptions);
        cursor += widths[index]!;
      });
    });
  }
}
