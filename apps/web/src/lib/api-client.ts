// The client alone, not the whole contract: the sign-in page loads only what it calls.
import { createApiClient, type ApiClientOptions } from '@portal/contract/client';
import { messages } from '@portal/contract/session';
import { activity } from './activity.ts';
import { sessionStore } from './session.ts';

export { ApiError } from '@portal/contract/client';

const isChange = ({ method }: { method: string }) => method !== 'GET' && method !== 'HEAD';

const options = {
  credentials: 'include',
  token: () => sessionStore.getValid()?.token,
  // Changes show the full-screen overlay (no double submits); reads show their loading in
  // place, in the table or pane that waits for them (docs/decisions/speed.md § Waiting that people feel).
  onBegin: (endpoint) => {
    if (isChange(endpoint)) activity.begin();
  },
  onEnd: (endpoint) => {
    if (isChange(endpoint)) activity.end();
  },
  // A 401 ends the session: the guard then sends the user to the login screen.
  onUnauthorized: () => {
    if (sessionStore.get()) sessionStore.clear();
  },
  // The role came to require a second factor this user has not set up: the guard shows the
  // enrolment until they have one (docs/decisions/second-step-lock-and-enrolment.md).
  onForbidden: (error) => {
    if (error.message === messages.enrolmentRequired) sessionStore.requireEnrolment();
  },
} satisfies ApiClientOptions;

/** The one way the app calls the API: `api.call('GET /api/role/get_roles_list')`. */
export const api = createApiClient(options);

/** Changes made in the background (a draft saved while the doctor types, a permission tick shown at once): no overlay. */
export const backgroundApi = createApiClient({ ...options, onBegin: undefined, onEnd: undefined });

/**
 * The same for the large multipart uploads, whose progress the overlay shows; its XHR-based
 * fetch loads with the first upload, not with the sign-in page.
 */
export const uploadApi = createApiClient({
  ...options,
  fetch: async (input, init) => (await import('./upload-progress.ts')).fetchWithUploadProgress(input, init),
});

/** Files and pictures are served by the API host; relative paths are used as they are. */
export const fileUrl = (path: string | null | undefined) => (path ? path : undefined);
