import { messageFilesField } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadApi } from '../../../lib/api-client.ts';
import { caseKeys } from '../../../lib/shared-queries.ts';
import { messageKeys } from './query-keys.ts';

export interface CaseMessageDraft {
  caseId: number;
  text: string;
  files: File[];
}

/** The multipart body: the text first, then the files. */
export function toMessageFormData({ text, files }: Pick<CaseMessageDraft, 'text' | 'files'>): FormData {
  const form = new FormData();
  form.append('text', text);
  for (const file of files) form.append(messageFilesField, file, file.name);
  return form;
}

export const sendCaseMessage = ({ caseId, ...draft }: CaseMessageDraft) =>
  uploadApi.call('POST /api/case/:caseId/messages', { params: { caseId }, body: toMessageFormData(draft) });

/** Sends a message; the conversation and the case's timeline refresh. */
export function useSendCaseMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendCaseMessage,
    onSuccess: (_, { caseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.ofCase(caseId) }),
        queryClient.invalidateQueries({ queryKey: caseKeys.timeline(caseId) }),
      ]),
  });
}
