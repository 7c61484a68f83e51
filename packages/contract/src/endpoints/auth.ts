import { loginRequest, loginResponse } from '../auth.ts';
import { messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

const tag = 'auth';

export const authEndpoints = {
  login: defineEndpoint({
    method: 'POST',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in: answers a bearer token and sets the token cookie',
    tag,
    access: 'public',
    body: loginRequest,
    answer: loginResponse,
    errors: [401, 403, 429],
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: '/api/auth/logout',
    operationId: 'logout',
    summary: "Sign out: revokes the caller's token and clears the cookie",
    tag,
    access: 'signedIn',
    answer: messageResponse,
  }),
};
