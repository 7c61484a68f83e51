import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { profilePictureFileName } from './common.ts';

export const uploadEndpoints = {
  // Shown across the app to signed-in users; a doctor sees only their own.
  profilePictureGet: defineEndpoint({
    method: 'GET',
    path: '/api/uploads/users/:userId/:fileName',
    record: 'picture',
    operationId: 'profilePictureGet',
    summary: "A user's profile picture or avatar (HEAD too); a doctor reads only their own",
    tag: 'uploads',
    access: 'signedIn',
    params: z.object({
      userId: z.coerce.number().int().positive(),
      fileName: z.string().regex(profilePictureFileName, 'Not a profile picture'),
    }),
    answer: { file: { contentTypes: ['image/jpeg', 'image/png'], description: 'The picture' } },
    errors: [404],
  }),
};
