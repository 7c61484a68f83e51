import { errorResponse } from '@portal/contract';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/** The `{ message, fieldErrors? }` answer for each error status a route can give. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorResponse])) as Record<
    ErrorStatus,
    typeof errorResponse
  >;
}

/** Errors every signed-in route can give: bad input, no session, no right. */
export const signedInErrors = errorResponses(400, 401, 403, 503);
