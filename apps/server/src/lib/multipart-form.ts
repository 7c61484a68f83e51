import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { toFieldErrors } from '@portal/contract';
import { AppError, badRequest } from './errors.ts';

const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype']);

export interface SmallFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/**
 * Reads a small multipart form (users, doctors): text fields into a plain object, and the
 * named file fields into memory, each at most `maxFileBytes`. Case uploads are streamed
 * elsewhere; this is only for forms whose files are pictures.
 */
export async function readSmallMultipart(
  request: FastifyRequest,
  options: { fileFields: string[]; maxFileBytes: number },
): Promise<{ fields: Record<string, string>; files: Map<string, SmallFile> }> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'Send this form as multipart/form-data');
  }
  const fields: Record<string, string> = Object.create(null);
  const files = new Map<string, SmallFile>();
  for await (const part of request.parts({
    limits: { fileSize: options.maxFileBytes, files: options.fileFields.length },
  })) {
    if (forbiddenNames.has(part.fieldname)) throw badRequest(`Field name "${part.fieldname}" is not allowed`);
    if (part.type === 'file') {
      if (!options.fileFields.includes(part.fieldname)) {
        part.file.resume();
        throw badRequest(`Unexpected file field "${part.fieldname}"`);
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
      fields[part.fieldname] = String(part.value);
    }
  }
  return { fields, files };
}

/** Parse with a contract schema; failures become 400 with the spec's messages per field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const fieldErrors = toFieldErrors(result.error);
    throw badRequest(Object.values(fieldErrors)[0] ?? 'Invalid request', fieldErrors);
  }
  return result.data;
}
