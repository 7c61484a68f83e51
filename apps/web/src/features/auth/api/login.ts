import { endpoints, type LoginRequest } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sessionStore } from '../../../lib/session.ts';

export const login = (input: LoginRequest) => api.call(endpoints.login, { body: input });

/** Signs in and stores the seven session values. */
export function useLogin() {
  const queryClient = useQueryClient();
  return async (input: LoginRequest) => {
    const answer = await login(input);
    queryClient.clear();
    sessionStore.start(answer);
    return answer;
  };
}
