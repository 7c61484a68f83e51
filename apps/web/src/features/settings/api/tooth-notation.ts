import type { ToothNotation } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { settingsKeys } from '../../../lib/shared-queries.ts';

/** The notation shown everywhere teeth are named: read through lib, which every feature may use. */
export { useToothNotation } from '../../../lib/tooth-notation.ts';

/** Keeps a notation on the account (docs/decisions/tooth-notation.md); every screen shows teeth in it at once. */
export function useSaveToothNotation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (toothNotation: ToothNotation) =>
      api.call('PUT /api/account/tooth-notation', { body: { toothNotation } }),
    onSuccess: (answer) => queryClient.setQueryData(settingsKeys.toothNotation(), answer),
  });
}
