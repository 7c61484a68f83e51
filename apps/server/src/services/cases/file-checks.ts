import {
  caseFileMessages,
  imageExtensions,
  otherFilesField,
  photoFileTypes,
  scanExtensions,
  scanFileTypes,
  type CaseFileType,
} from '@portal/contract';
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { Storage } from '../../storage/storage.ts';
import { isDecodableImage, PdfContentScanner, type PdfVerdict } from './content-checks.ts';

/** What the bytes of an accepted case file are. */
export type FileKind = 'stl' | 'zip' | 'rar' | 'jpeg' | 'png' | 'pdf';

export const contentTypeOf: Record<FileKind, string> = {
  stl: 'model/stl',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
};

const isImageKind = (kind: FileKind) => kind === 'jpeg' || kind === 'png';

/** A file field of the case form: the FileType it is stored as and the message when refused. */
export interface FileSlot {
  fileType: CaseFileType;
  isMultiple: boolean;
  /** Extension (lower case, no dot) -> the kinds its bytes may be. */
  accepts: Record<string, FileKind[]>;
  message: string;
}

const scanAccepts: Record<(typeof scanExtensions)[number], FileKind[]> = { stl: ['stl'], zip: ['zip'], rar: ['rar'] };
const imageAccepts: Record<(typeof imageExtensions)[number], FileKind[]> = {
  jpg: ['jpeg', 'png'],
  jpeg: ['jpeg', 'png'],
  png: ['png', 'jpeg'],
};

/** What a message may carry (docs/decisions/messages.md § Messages): pictures as case photos are, PDFs and STL scans. */
export const messageFileAccepts: Record<string, FileKind[]> = { ...imageAccepts, pdf: ['pdf'], stl: ['stl'] };

export function fileSlotOf(fieldName: string): FileSlot | undefined {
  if (Object.hasOwn(scanFileTypes, fieldName)) {
    const fileType = scanFileTypes[fieldName as keyof typeof scanFileTypes];
    return { fileType, isMultiple: false, accepts: scanAccepts, message: caseFileMessages.scanType };
  }
  if (Object.hasOwn(photoFileTypes, fieldName)) {
    const fileType = photoFileTypes[fieldName as keyof typeof photoFileTypes];
    return { fileType, isMultiple: false, accepts: imageAccepts, message: caseFileMessages.photoType };
  }
  if (fieldName === otherFilesField) {
    return { fileType: 'OtherFile', isMultiple: true, accepts: imageAccepts, message: caseFileMessages.otherFileType };
  }
  return undefined;
}

export function extensionOf(fileName: string): string {
  const match = /\.([^./\\]+)$/.exec(fileName);
  return match ? match[1]!.toLowerCase() : '';
}

/** Bytes kept from the start of each file: enough for every magic number and the STL header. */
const headBytes = 512;

const startsWith = (head: Buffer, bytes: number[]) =>
  head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);

const isZip = (head: Buffer) =>
  startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]);
const isRar = (head: Buffer) => startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]);
const isJpeg = (head: Buffer) => startsWith(head, [0xff, 0xd8, 0xff]);
const isPng = (head: Buffer) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isPdf = (head: Buffer) => startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d]);

/** Binary STL: an 80-byte header, a triangle count, and exactly 50 bytes per triangle. */
const isBinaryStl = (head: Buffer, size: number) => head.length >= 84 && size === 84 + 50 * head.readUInt32LE(80);

/** ASCII STL: 'solid' first, and only text in the bytes we kept. */
const isAsciiStl = (head: Buffer) =>
  /^\s*solid\b/.test(head.toString('latin1')) &&
  head.every((byte) => byte === 9 || byte === 10 || byte === 13 || (byte >= 32 && byte < 127));

/**
 * A 3D model by its content, stricter than a case scan's check: a binary STL whose triangle
 * count matches its size, or an ASCII STL whose first bytes are text starting with `solid`
 * and go on to a `facet` (or end at once with `endsolid`).
 */
export const isStlModel = (head: Buffer, size: number) =>
  isBinaryStl(head, size) ||
  (isAsciiStl(head) && /^\s*solid\b[^\n]*\n\s*(facet|endsolid)\b/.test(head.toString('latin1')));

/** Whether the whole file (its first bytes and its size) is of `kind`. */
export function isFileOfKind(kind: FileKind, head: Buffer, size: number): boolean {
  switch (kind) {
    case 'stl':
      return isBinaryStl(head, size) || isAsciiStl(head);
    case 'zip':
      return isZip(head);
    case 'rar':
      return isRar(head);
    case 'jpeg':
      return isJpeg(head);
    case 'png':
      return isPng(head);
    case 'pdf':
      return isPdf(head);
  }
}

/**
 * Why a stored file of an accepted kind is refused all the same, or undefined: a PDF with
 * active content (read by `inspector` as it passed), a JPEG or PNG that does not decode.
 */
export async function findContentRefusal(
  storage: Storage,
  storageKey: string,
  kind: FileKind,
  inspector: FileInspector,
): Promise<string | undefined> {
  const pdf = inspector.pdfVerdict;
  if (kind === 'pdf' && !pdf.isClean) {
    return pdf.reason === 'active' ? caseFileMessages.pdfActiveContent : caseFileMessages.pdfUnreadable;
  }
  if (isImageKind(kind) && !(await isDecodableImage(storage, storageKey))) return caseFileMessages.imageUnreadable;
  return undefined;
}

/**
 * Whether a file starting with `head` can still turn out to be of `kind`; lets an upload be
 * refused at its first bytes instead of after the whole file. An STL's verdict needs its size.
 */
export function mayBeOfKind(kind: FileKind, head: Buffer): boolean {
  return kind === 'stl' || head.length < 8 || isFileOfKind(kind, head, Number.NaN);
}

/**
 * Passes the bytes through unchanged while hashing them (SHA-256), counting them, keeping the
 * first `headBytes`, and calling `check` on every chunk so a wrong type or an upload past its
 * limit stops the write at once.
 */
export class FileInspector extends Transform {
  private readonly hash = createHash('sha256');
  private headChunks: Buffer[] = [];
  private headLength = 0;
  /** Set once the first bytes are in: a scanner when they are a PDF's, else null. */
  private pdfScanner: PdfContentScanner | null | undefined;
  bytes = 0;

  private readonly check: (inspector: FileInspector, chunkBytes: number) => void;

  constructor(check: (inspector: FileInspector, chunkBytes: number) => void) {
    // Buffers a few socket reads ahead of the storage write (the default is 16 KiB).
    super({ highWaterMark: 1024 * 1024 });
    this.check = check;
  }

  get head(): Buffer {
    if (this.headChunks.length > 1) this.headChunks = [Buffer.concat(this.headChunks)];
    return (this.headChunks[0] ?? Buffer.alloc(0)).subarray(0, headBytes);
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  /** A PDF's active content (scripts, automatic actions, embedded files), read as it passed. */
  get pdfVerdict(): PdfVerdict {
    return this.pdfScanner?.result ?? { isClean: true };
  }

  /** Counts, hashes and keeps the head of `chunk` without passing it on (a tus upload's PATCHes). */
  account(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    if (this.headLength < headBytes) {
      this.headChunks.push(chunk.subarray(0, headBytes - this.headLength));
      this.headLength += Math.min(chunk.length, headBytes - this.headLength);
    }
    // Earlier chunks held fewer than 5 bytes: no more than `%PDF`.
    if (this.pdfScanner === undefined && this.headLength >= 5) {
      this.pdfScanner = isPdf(this.head) ? new PdfContentScanner() : null;
    }
    this.pdfScanner?.feed(chunk);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.account(chunk);
    try {
      this.check(this, chunk.length);
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback(null, chunk);
  }
}

/**
 * Bidirectional controls and invisible marks that could make a name read as something else
 * (`\u202Egnp.exe.png` shows as `png.exe.png`): dropped from every stored file name.
 */
export const bidiControls = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The uploader's file name, for display and Content-Disposition only: no path, no control
 * characters, no bidirectional controls. Case, message, plan and resumable-upload files all
 * get their stored name here.
 */
export function displayFileName(fileName: string): string {
  const base = fileName.replace(bidiControls, '').split(/[/\\]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '_')
    .trim()
    .slice(-200);
  return cleaned.replace(/^\.+/, '') || 'file';
}
