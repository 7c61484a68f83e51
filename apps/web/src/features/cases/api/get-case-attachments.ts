import type { CaseAttachment } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const getCaseAttachments = (caseId: number) =>
  api.get<CaseAttachment[]>(`/case/get_cases_attachments_by_case_id/${caseId}`);

export const caseAttachmentsQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: ['cases', 'attachments', caseId], queryFn: () => getCaseAttachments(caseId) });

export const useCaseAttachments = (caseId: number) => useQuery(caseAttachmentsQueryOptions(caseId));
