import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { serverFieldMessages, toFieldErrors } from '@portal/contract';
import { AppError, badRequest, coded } from './errors.ts';
import { assertNoNul } from './nul-text.ts';

const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype']);

/** One part of a multipart body as the parser yields it, in the terms the forms read it. */
export type FormPart =
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated: boolean }
  | {
      type: 'file';
      fieldname: string;
      filename: string;
      mimetype: string;
      /** `truncated` once the parser's file size limit cut the file short. */
      file: Readable & { truncated: boolean };
      toBuffer(): Promise<Buffer>;
    };

/** The parser's limits for one form (busboy's names). */
export interface FormLimits {
  fileSize?: number;
  files?: number;
  fields?: number;
  fieldSize?: number;
  parts?: number;
}

export interface SmallFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

export const isForbiddenFieldName = (name: string) => forbiddenNames.has(name);

/**
 * Refuses a streamed upload's part before its contents are used: a name no form may use, and a
 * text field cut at its bound (the upload's own routes: a case, a plan, a progress scan).
 */
export function refuseBadPart(part: { fieldname: string; type: string; valueTruncated?: boolean }): void {
  if (isForbiddenFieldName(part.fieldname)) throw coded(400, 'fieldNameNotAllowed', { field: part.fieldname });
  if (part.type === 'field' && part.valueTruncated) {
    throw coded(400, 'fieldTooLong', { field: part.fieldname }, { [part.fieldname]: serverFieldMessages.tooLong });
  }
}

/** What a small form may hold: its file fields and the bytes of all its text together. */
export interface SmallFormShape {
  fileFields: string[];
  maxTextBytes: number;
}

/** The parser's limit errors (@fastify/multipart's codes), as the sentence a person reads. */
const limitMessages: Record<string, string> = {
  FST_FIELDS_LIMIT: 'The form has more fields than it may have',
  FST_PARTS_LIMIT: 'The form has more parts than it may have',
  FST_FILES_LIMIT: 'The form has more files than it may have',
};

/**
 * Reads a small multipart form (users, doctors): text fields into a plain object, and the
 * named file fields into memory. The parser's limits bound each field, the number of fields
 * and each file; the text of all fields together is counted as the parts arrive, so a form
 * never holds more than `maxTextBytes` of text, however many fields it sends (413 past any
 * of these). Case uploads are streamed elsewhere; this is only for forms whose files are
 * pictures.
 */
export async function readSmallMultipart(
  parts: AsyncIterable<FormPart>,
  { fileFields, maxTextBytes }: SmallFormShape,
): Promise<{ fields: Record<string, string>; files: Map<string, SmallFile> }> {
  const fields: Record<string, string> = Object.create(null);
  const files = new Map<string, SmallFile>();
  let textBytes = 0;
  try {
    for await (const part of parts) {
      if (isForbiddenFieldName(part.fieldname)) throw coded(400, 'fieldNameNotAllowed', { field: part.fieldname });
      if (part.type === 'file') {
        if (!fileFields.includes(part.fieldname)) {
          part.file.resume();
          throw coded(400, 'unexpectedFileField', { field: part.fieldname });
        }
        const data = await part.toBuffer();
        if (data.length > 0) {
          files.set(part.fieldname, {
            fieldName: part.fieldname,
            fileName: part.filename,
            mimeType: part.mimetype,
            data,
          });
        }
      } else {
        if (part.valueTruncated) throw coded(413, 'fieldLongerThanForm', { field: part.fieldname });
        const value = String(part.value);
        textBytes += Buffer.byteLength(value);
        if (textBytes > maxTextBytes) throw new AppError(413, 'The form has more text than it may have');
        fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    const limitMessage = limitMessages[(error as { code?: string }).code ?? ''];
    throw limitMessage ? new AppError(413, limitMessage) : error;
  }
  return { fields, files };
}

/** Parse with a contract schema; failures become 400 with the spec's messages per field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  assertNoNul(input);
  const result = schema.safeParse(input);
  if (!result.success) {
    const fieldErrors = toFieldErrors(result.error);
    throw badRequest(Object.values(fieldErrors)[0] ?? 'Invalid request', fieldErrors);
  }
  // Again once parsed: a JSON field (clinicList) spells a NUL as \u0000.
  assertNoNul(result.data);
  return result.data;
}
