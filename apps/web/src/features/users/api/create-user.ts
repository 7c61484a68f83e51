import type { UserAddRequest } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';
import { userMultipart } from './user-multipart.ts';

export type CreateUserInput = Omit<UserAddRequest, 'roleId' | 'userType'> & { roleId: string; profilePic: File | null };

export const createUser = ({ profilePic, ...fields }: CreateUserInput) =>
  api.call('POST /api/user/add', { body: userMultipart({ ...fields, userType: 'Web' }, profilePic) });

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
