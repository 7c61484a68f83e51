import { auditEntry, auditListQuery } from '../audit.ts';
import { defineEndpoint } from '../endpoint.ts';
import { totalCountHeader } from './common.ts';

export const auditEndpoints = {
  // Paged like the case lists: `?page=&pageSize=`, the count of all matches in X-Total-Count.
  auditList: defineEndpoint({
    method: 'GET',
    path: '/api/audit',
    operationId: 'auditList',
    summary: 'One page of the audit log, newest first',
    tag: 'audit',
    access: 'administrator',
    query: auditListQuery,
    answer: auditEntry.array(),
    answerHeaders: totalCountHeader,
  }),
};
