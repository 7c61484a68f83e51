import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../lib/errors.ts';
import { parseWith, readSmallMultipart, type FormLimits } from '../lib/multipart-form.ts';
import { multipartParts } from './multipart-parts.ts';

const maxPictureBytes = 10 * 1024 * 1024;
/** All text of one form: the largest field (clinicList) with every other field at its longest. */
const maxTextBytes = 192 * 1024;
/** Room for the parts' headers and boundaries around the picture and the text. */
const maxBodyBytes = maxPictureBytes + maxTextBytes + 64 * 1024;

/**
 * The parser's limits for the user and doctor forms (the registration form among them,
 * which anyone may send). Their largest, the doctor's edit form, has 18 text fields and a
 * picture (test/profile-form-limits.test.ts counts them); the longest field is clinicList,
 * 50 clinics of JSON at up to 3 bytes a character.
 */
export const profileFormLimits = {
  fields: 24,
  fieldSize: 128 * 1024,
  files: 1,
  fileSize: maxPictureBytes,
  parts: 25,
} satisfies FormLimits;

/**
 * A user or doctor form: its fields parsed with the endpoint's schema, the optional
 * picture, and whether an edit asks to remove the stored one. A body declaring more than
 * such a form can hold is refused before any of it is read.
 */
export async function readProfileForm<S extends z.ZodType>(request: FastifyRequest, schema: S) {
  if (Number(request.headers['content-length']) > maxBodyBytes) {
    throw new AppError(413, 'The form is larger than it may be: a picture of up to 10 MB and its fields');
  }
  const parts = multipartParts(request, profileFormLimits);
  const { fields, files } = await readSmallMultipart(parts, { fileFields: ['profilePic'], maxTextBytes });
  const { removeProfilePic, ...input } = parseWith(schema, fields) as z.output<S> & { removeProfilePic?: string };
  return {
    input: input as Omit<z.output<S>, 'removeProfilePic'>,
    picture: files.get('profilePic'),
    removePicture: removeProfilePic === 'true' || removeProfilePic === '1',
  };
}
