import {
  caseFileMessages,
  maxOtherFiles,
  photoFileTypes,
  scanFileTypes,
  serverFieldMessages,
  type CaseFileType,
} from '@portal/contract';
import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, coded } from '../../lib/errors.ts';
import { refuseBadPart, type FormLimits, type FormPart } from '../../lib/multipart-form.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { drainStream } from '../uploads/store-counted.ts';
import {
  contentTypeOf,
  displayFileName,
  extensionOf,
  fileSlotOf,
  FileInspector,
  findContentRefusal,
  isFileOfKind,
  mayBeOfKind,
  type FileKind,
} from './file-checks.ts';

/** A file streamed into storage after its name and bytes were accepted. */
export interface StoredFile {
  fileName: string;
  storageKey: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface StoredCaseFile extends StoredFile {
  fieldName: string;
  fileType: CaseFileType;
}

export interface ReceivedCaseUpload {
  fields: Record<string, string>;
  files: StoredCaseFile[];
  /** Files refused by name or content, keyed by field; nothing of theirs is stored. */
  fileErrors: Record<string, string>;
}

const singleFileFields = Object.keys(scanFileTypes).length + Object.keys(photoFileTypes).length;
const maxFields = 100;
/**
 * The longest text field is 5,000 characters (20 KB at most in UTF-8); the whole form's text,
 * a few KB in practice, is bounded too, so a signed-in caller cannot make a request hold
 * 100 fields of 1 MiB (issue 20, finding 1's kind of exposure).
 */
const maxFieldBytes = 64 * 1024;
const maxCaseTextBytes = 256 * 1024;

const tooLarge = () => new AppError(413, caseFileMessages.tooLarge);
const caseTextTooLarge = () => coded(413, 'caseTextTooLarge', { kilobytes: maxCaseTextBytes / 1024 });

type FilePart = Extract<FormPart, { type: 'file' }>;

/** The parser's limits for a case form; one file may use the whole budget, the inspector enforces the total. */
export const caseUploadLimits = (maxUploadBytes: number): FormLimits => ({
  fileSize: maxUploadBytes,
  files: singleFileFields + maxOtherFiles,
  fields: maxFields,
  fieldSize: maxFieldBytes,
  parts: singleFileFields + maxOtherFiles + maxFields,
});

/** Reads a part to its end without keeping it. */
export const drain = (part: FilePart): Promise<void> => drainStream(part.file);

/**
 * Streams the case form's files (parts parsed with `caseUploadLimits`) into storage as they
 * arrive, each under a server-made key `cases/<upload uuid>/<random>`, through a
 * FileInspector (SHA-256, size, magic bytes, the upload limit); text fields are collected.
 * If anything throws (a limit, a malformed body, the client going away mid-file), every
 * object already written is deleted first.
 */
export async function receiveCaseUpload(
  parts: AsyncIterable<FormPart>,
  storage: Storage,
  options: { maxUploadBytes: number },
): Promise<ReceivedCaseUpload> {
  const uploadId = randomUUID();
  const received: ReceivedCaseUpload = { fields: Object.create(null), files: [], fileErrors: Object.create(null) };
  const budget = { remaining: options.maxUploadBytes };
  const seenSingle = new Set<string>();
  let otherFileCount = 0;
  let textBytes = 0;
  try {
    for await (const part of parts) {
      refuseBadPart(part);
      if (part.type === 'field') {
        const value = String(part.value);
        textBytes += Buffer.byteLength(value);
        if (textBytes > maxCaseTextBytes) throw caseTextTooLarge();
        received.fields[part.fieldname] = value;
        continue;
      }
      const slot = fileSlotOf(part.fieldname);
      if (!slot) {
        await drain(part);
        throw coded(
          400,
          'unexpectedFileField',
          { field: part.fieldname },
          { [part.fieldname]: serverFieldMessages.unexpectedFile },
        );
      }
      // A file input left empty still sends a part without a name.
      if (!part.filename) {
        await drain(part);
        continue;
      }
      if (slot.isMultiple ? ++otherFileCount > maxOtherFiles : seenSingle.has(part.fieldname)) {
        await drain(part);
        received.fileErrors[part.fieldname] ??= slot.isMultiple
          ? caseFileMessages.tooManyOtherFiles
          : 'Only one file may be sent here';
        continue;
      }
      seenSingle.add(part.fieldname);
      const stored = await storeFilePart(
        storage,
        part,
        slot.accepts,
        `cases/${uploadId}/${randomBytes(12).toString('hex')}`,
        budget,
      );
      if ('refused' in stored) received.fileErrors[part.fieldname] ??= stored.refused ?? slot.message;
      else received.files.push({ ...stored, fieldName: part.fieldname, fileType: slot.fileType });
    }
  } catch (error) {
    await deleteKeys(
      storage,
      received.files.map((file) => file.storageKey),
    );
    throw error;
  }
  return received;
}

/** A file not kept: not of a kind its name allows (no reason), or refused for its content (the reason). */
export interface RefusedFile {
  refused: string | undefined;
}

/**
 * One file part into storage. Returns a RefusedFile when its name or bytes are not what
 * `accepts` allows, or its content is refused (the rest of the part is read and dropped,
 * nothing stays stored); throws on anything that ends the whole upload (`budget` spent: 413).
 */
export async function storeFilePart(
  storage: Storage,
  part: FilePart,
  accepts: Record<string, FileKind[]>,
  storageKey: string,
  budget: { remaining: number },
): Promise<StoredFile | RefusedFile> {
  const kinds = accepts[extensionOf(part.filename)];
  if (!kinds) {
    await drain(part);
    return { refused: undefined };
  }
  // Kept here rather than read from the thrown error: a storage driver may wrap it.
  let stopped: 'refused' | 'tooLarge' | undefined;
  const inspector = new FileInspector((meter, chunkBytes) => {
    budget.remaining -= chunkBytes;
    if (budget.remaining < 0) stopped = 'tooLarge';
    else if (!kinds.some((kind) => mayBeOfKind(kind, meter.head))) stopped = 'refused';
    if (stopped) throw new Error(`upload stopped: ${stopped}`);
  });
  // Not pipeline(): a refused file must not destroy the part, or the parser stops; the
  // rest of the part is drained instead so the following fields are still read.
  part.file.once('error', (error) => inspector.destroy(error));
  // The driver sees any failure through its own pipeline; this keeps one raised before it
  // attaches (it may await something first) from being an uncaught 'error' event.
  inspector.on('error', () => {});
  part.file.pipe(inspector);
  try {
    await storage.put(storageKey, inspector, 'application/octet-stream');
  } catch (error) {
    if (stopped === 'tooLarge') throw tooLarge();
    if (stopped !== 'refused') throw error;
    part.file.unpipe(inspector);
    await drain(part);
    return { refused: undefined };
  }
  if (part.file.truncated) {
    await storage.delete(storageKey);
    throw tooLarge();
  }
  const kind: FileKind | undefined = kinds.find((candidate) =>
    isFileOfKind(candidate, inspector.head, inspector.bytes),
  );
  if (!kind) {
    await storage.delete(storageKey);
    return { refused: undefined };
  }
  const refusal = await findContentRefusal(storage, storageKey, kind, inspector);
  if (refusal) {
    await storage.delete(storageKey);
    return { refused: refusal };
  }
  return {
    fileName: displayFileName(part.filename),
    storageKey,
    contentType: contentTypeOf[kind],
    size: inspector.bytes,
    sha256: inspector.sha256,
  };
}
