import { maxMessageFiles, messageFilesField, messageMessages, serverFieldMessages } from '@portal/contract';
import { randomBytes, randomUUID } from 'node:crypto';
import { badRequest, coded, codedOnField } from '../../lib/errors.ts';
import { isForbiddenFieldName, type FormLimits, type FormPart } from '../../lib/multipart-form.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { messageFileAccepts } from '../cases/file-checks.ts';
import { drain, storeFilePart, type StoredFile } from '../cases/receive-case-upload.ts';

export interface ReceivedMessageUpload {
  fields: Record<string, string>;
  files: StoredFile[];
}

const maxFields = 10;

/**
 * The parser's limits for a message: one file past the limit is let through to be refused
 * with a clear 400 rather than the parser's own error; the text's limit is checked by the
 * contract (a character may take 4 bytes).
 */
export const messageUploadLimits = (maxUploadBytes: number): FormLimits => ({
  fileSize: maxUploadBytes,
  files: maxMessageFiles + 1,
  fields: maxFields,
  fieldSize: 64 * 1024,
  parts: maxMessageFiles + 1 + maxFields,
});

/**
 * Streams a message's files into storage under `messages/<upload uuid>/<random>`, each
 * checked by name and bytes like a case's files; any refused file, one too many, or any
 * failure deletes every object already written and ends the upload (docs/decisions/messages.md § Messages).
 */
export async function receiveMessageUpload(
  parts: AsyncIterable<FormPart>,
  storage: Storage,
  options: { maxUploadBytes: number },
): Promise<ReceivedMessageUpload> {
  const uploadId = randomUUID();
  const received: ReceivedMessageUpload = { fields: Object.create(null), files: [] };
  const budget = { remaining: options.maxUploadBytes };
  let fileCount = 0;
  try {
    for await (const part of parts) {
      if (isForbiddenFieldName(part.fieldname)) throw coded(400, 'fieldNameNotAllowed', { field: part.fieldname });
      if (part.type === 'field') {
        if (part.valueTruncated)
          throw badRequest(messageMessages.tooLong, { [part.fieldname]: serverFieldMessages.tooLong });
        received.fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== messageFilesField) {
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
      if (++fileCount > maxMessageFiles) {
        await drain(part);
        throw badRequest(messageMessages.tooManyFiles, { files: messageMessages.tooManyFiles });
      }
      const storageKey = `messages/${uploadId}/${randomBytes(12).toString('hex')}`;
      const stored = await storeFilePart(storage, part, messageFileAccepts, storageKey, budget);
      if ('refused' in stored) {
        const reason = stored.refused ?? messageMessages.fileType;
        throw codedOnField(400, 'messageFileRefused', { file: part.filename, reason }, 'files');
      }
      received.files.push(stored);
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
