// The auth rows of the endpoint table and the sign-in schema, with zod: loaded by login.ts
// on first use of the sign-in form, not with the page (docs/decisions/speed.md § On the wire).
export { loginRequest } from '@portal/contract/auth';
export { authEndpoints } from '@portal/contract/endpoints/auth';
