import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, inflateSync } from 'node:zlib';
import type { Storage } from '../../storage/storage.ts';

/**
 * PDF names that run something or carry something: scripts, actions run on opening or on
 * events, launched programs, embedded files, Flash and XFA forms (which carry scripts).
 * `/OpenAction` followed by `[` is a view to open at (a destination), not an action: allowed.
 */
const activeNames = new Set([
  'JavaScript',
  'JS',
  'OpenAction',
  'AA',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'XFA',
]);

// PDF white space and delimiters (ISO 32000-1 § 7.2.2); a name ends at either.
const nameToken =
  /\/((?:[^\0\t\n\f\r ()<>[\]{}/%#]|#[0-9A-Fa-f]{2})+)(?=[\0\t\n\f\r ()<>[\]{}/%])(?=[\0\t\n\f\r ]*(.?))/g;
/** Text without any of these cannot hold a name looked for (`#` may escape one). */
const mayName = /JavaScript|JS|OpenAction|AA|Launch|EmbeddedFile|RichMedia|XFA|ObjStm|#/;
const streamStart = />>[\0\t\n\f\r ]*stream\r?\n/;
/** Enough to hold any name looked for (hex-escaped) or a stream's start across two chunks. */
const carryLength = 256;
/** An object stream (objects compressed together) is inflated to be read; larger ones are refused as unreadable. */
const maxObjectStreamBytes = 16 * 1024 * 1024;
const maxInflatedBytes = 64 * 1024 * 1024;

export type PdfVerdict = { isClean: true } | { isClean: false; reason: 'active' | 'unreadable'; name?: string };

/**
 * Reads a PDF as it streams, in chunks of any size, for active content: every name outside
 * streams, and inside object streams (PDF 1.5), which are inflated since a catalogue's
 * `/OpenAction` may hide there. Other streams (pages, images, fonts) are skipped, so their
 * binary data never reads as a name by chance. Memory stays bounded: a carry of 256
 * bytes, and an object stream's compressed bytes while it arrives.
 */
export class PdfContentScanner {
  private carry = '';
  private isInStream = false;
  private hasObjectStreamName = false;
  private isObjectStream = false;
  private objectStream: Buffer[] = [];
  private objectStreamBytes = 0;
  private verdict: PdfVerdict = { isClean: true };

  get result(): PdfVerdict {
    return this.verdict;
  }

  feed(chunk: Buffer): void {
    let text = chunk.toString('latin1');
    while (text !== '' && this.verdict.isClean) text = this.isInStream ? this.skipStream(text) : this.readObjects(text);
  }

  /** Names until the next stream's data starts; returns what follows that start. */
  private readObjects(text: string): string {
    const buffer = this.carry + text;
    const start = streamStart.exec(buffer);
    if (!start) {
      this.readNames(buffer);
      this.carry = buffer.slice(-carryLength);
      return '';
    }
    this.readNames(buffer.slice(0, start.index + 2));
    this.carry = '';
    this.isInStream = true;
    this.isObjectStream = this.hasObjectStreamName;
    this.hasObjectStreamName = false;
    return buffer.slice(start.index + start[0].length);
  }

  /** A stream's data up to `endstream`: dropped, or kept to inflate when it is an object stream. */
  private skipStream(text: string): string {
    const buffer = this.carry + text;
    const end = buffer.indexOf('endstream');
    this.carry = end === -1 ? buffer.slice(-9) : '';
    if (this.isObjectStream) this.keepObjectStreamData(end === -1 ? buffer.slice(0, -9) : buffer.slice(0, end));
    if (end === -1) return '';
    this.isInStream = false;
    if (this.isObjectStream) this.readObjectStream();
    return buffer.slice(end + 'endstream'.length);
  }

  private keepObjectStreamData(data: string): void {
    this.objectStreamBytes += data.length;
    if (this.objectStreamBytes > maxObjectStreamBytes) this.verdict = { isClean: false, reason: 'unreadable' };
    else this.objectStream.push(Buffer.from(data, 'latin1'));
  }

  private readObjectStream(): void {
    const compressed = Buffer.concat(this.objectStream);
    this.objectStream = [];
    this.objectStreamBytes = 0;
    try {
      const objects = inflateSync(compressed, {
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength: maxInflatedBytes,
      });
      this.readNames(`${objects.toString('latin1')} `);
    } catch {
      // Not deflated, encrypted or damaged: what it holds cannot be checked.
      this.verdict = { isClean: false, reason: 'unreadable' };
    }
  }

  private readNames(text: string): void {
    // Most object text names nothing looked for: one search instead of a match per name.
    if (!mayName.test(text)) return;
    for (const [, escaped, next] of text.matchAll(nameToken)) {
      const name = escaped!.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      if (name === 'ObjStm') this.hasObjectStreamName = true;
      // A name at the end of this text is read again with what follows (the carry).
      if (!activeNames.has(name) || (name === 'OpenAction' && (next === '[' || next === ''))) continue;
      this.verdict = { isClean: false, reason: 'active', name };
      return;
    }
  }
}

/**
 * Whether a stored JPEG or PNG decodes to its last pixel (sharp, libvips): magic bytes
 * followed by anything else, a truncated file or a decompression bomb past sharp's pixel
 * limit all fail. Decoded at a small size, so memory stays low whatever the photo's size.
 */
export async function isDecodableImage(storage: Storage, key: string): Promise<boolean> {
  const sharp = (await import('sharp')).default;
  const decoder = sharp({ failOn: 'error' }).resize(64, 64, { fit: 'inside' }).raw();
  const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  try {
    await pipeline(await storage.read(key), decoder, discard);
    return true;
  } catch {
    return false;
  }
}
