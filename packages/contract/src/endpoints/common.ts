import { z } from 'zod';
import type { FileField } from '../endpoint.ts';

/** The profile picture of the user and doctor forms: JPEG or PNG, at most 10 MB. */
export const profilePicFile: FileField = {
  name: 'profilePic',
  description: 'Profile picture, JPEG or PNG, at most 10 MB',
};

/** An edit form's request to drop the stored picture (ignored when a new one is sent). */
export const pictureRemoval = z.object({
  removeProfilePic: z.string().optional().meta({
    description: "'true' or '1' removes the stored picture when no new one is sent",
  }),
});

export const totalCountHeader = {
  'X-Total-Count': { description: 'How many rows match, on every page', schema: { type: 'integer' } },
} as const;

/** A stored profile picture's name: its hash, and the avatar size for the small copies. */
export const profilePictureFileName = /^[a-f0-9]{16}(?:_(?:32x32|90x90))?\.(?:jpg|png)$/;
