import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { caseDetailKeys } from './query-keys.ts';

export const getCaseAttachments = (caseId: number) =>
  api.call('GET /api/case/get_cases_attachments_by_case_id/:caseId', { params: { caseId } });

export const caseAttachmentsQueryOptions = (caseId: number) =>
  queryOptions({ queryKey: caseDetailKeys.attachments(caseId), queryFn: () => getCaseAttachments(caseId) });

export const useCaseAttachments = (caseId: number) => useQuery(caseAttachmentsQueryOptions(caseId));
