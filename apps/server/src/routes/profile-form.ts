import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseWith, readSmallMultipart } from '../lib/multipart-form.ts';
import { multipartParts } from './multipart-parts.ts';

const maxPictureBytes = 10 * 1024 * 1024;

/**
 * A user or doctor form: its fields parsed with the endpoint's schema, the optional
 * picture, and whether an edit asks to remove the stored one.
 */
export async function readProfileForm<S extends z.ZodType>(request: FastifyRequest, schema: S) {
  const parts = multipartParts(request, { fileSize: maxPictureBytes, files: 1 });
  const { fields, files } = await readSmallMultipart(parts, ['profilePic']);
  const { removeProfilePic, ...input } = parseWith(schema, fields) as z.output<S> & { removeProfilePic?: string };
  return {
    input: input as Omit<z.output<S>, 'removeProfilePic'>,
    picture: files.get('profilePic'),
    removePicture: removeProfilePic === 'true' || removeProfilePic === '1',
  };
}
