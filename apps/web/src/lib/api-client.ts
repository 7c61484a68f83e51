// The client alone, not the whole contract: the sign-in page loads only what it calls.
import { createApiClient, type ApiClientOptions } from '@portal/contract/client';
import { activity } from './activity.ts';
import { sessionStore } from './session.ts';
import { fetchWithUploadProgress } from './upload-progress.ts';

export { ApiError } from '@portal/contract/client';

const options = {
  credentials: 'include',
  token: () => sessionStore.getValid()?.token,
  // Every call shows the loading overlay.
  onBegin: activity.begin,
  onEnd: activity.end,
  // A 401 ends the session: the guard then sends the user to the login screen.
  onUnauthorized: () => {
    if (sessionStore.get()) sessionStore.clear();
  },
} satisfies ApiClientOptions;

/** The one way the app calls the API: `api.call(endpoints.roleList)`. */
export const api = createApiClient(options);

/** Calls made in the background (a draft saved while the doctor types): no loading overlay. */
export const backgroundApi = createApiClient({ ...options, onBegin: undefined, onEnd: undefined });

/** The same for the large multipart uploads, whose progress the overlay shows. */
export const uploadApi = createApiClient({ ...options, fetch: fetchWithUploadProgress });

/** Files and pictures are served by the API host; relative paths are used as they are. */
export const fileUrl = (path: string | null | undefined) => (path ? path : undefined);
