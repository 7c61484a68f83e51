import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { FormLimits } from '../lib/multipart-form.ts';

/** A multipart body's parts as they arrive, for a service to read; any other body is 415. */
export function multipartParts(request: FastifyRequest, limits: FormLimits) {
  if (!request.isMultipart()) throw new AppError(415, 'Send this form as multipart/form-data');
  return request.parts({ limits });
}
