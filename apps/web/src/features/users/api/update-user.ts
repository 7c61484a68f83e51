import type { UserEditRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';
import { userMultipart } from './user-multipart.ts';

/** An empty password keeps the current one; `removeProfilePic` drops the stored picture. */
export type UpdateUserInput = Omit<UserEditRequest, 'roleId' | 'currentPassword'> & {
  /** Only when one edits one's own password or e-mail (docs/decisions/sign-in-and-sessions.md § Changing one's own password or e-mail). */
  currentPassword?: string;
  userId: number;
  roleId: string;
  profilePic: File | null;
  removeProfilePic: boolean;
};

export const updateUser = ({ userId, profilePic, removeProfilePic, ...fields }: UpdateUserInput) =>
  api.call('PUT /api/user/edit/:id', {
    params: { id: userId },
    body: userMultipart({ ...fields, ...(removeProfilePic ? { removeProfilePic: 'true' } : {}) }, profilePic),
  });

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
