// The auth rows of the endpoint table and the sign-in schema, with zod: loaded by login.ts
// once the sign-in page is shown, not with it (docs/decisions.md § On the wire).
export { loginRequest } from '@portal/contract/auth';
export { authEndpoints } from '@portal/contract/endpoints/auth';
