import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseWith, readSmallMultipart } from '../lib/multipart-form.ts';

const maxPictureBytes = 10 * 1024 * 1024;

/** A user or doctor form: its fields parsed with the contract schema, and the optional picture. */
export async function readProfileForm<S extends z.ZodType>(request: FastifyRequest, schema: S) {
  const { fields, files } = await readSmallMultipart(request, {
    fileFields: ['profilePic'],
    maxFileBytes: maxPictureBytes,
  });
  const input = parseWith(schema, fields);
  return {
    input,
    picture: files.get('profilePic'),
    removePicture: fields.removeProfilePic === 'true' || fields.removeProfilePic === '1',
  };
}
