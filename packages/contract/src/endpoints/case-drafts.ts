import { z } from 'zod';
import { caseDraft, caseDraftRequest, caseDraftSaved, caseDraftSummary } from '../case-drafts.ts';
import { idParam, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

const tag = 'cases';
/** Whoever may submit a case (as caseCreate); each caller sees only their own drafts. */
const caseSubmitters = { pages: ['/cases'], doctors: true, assistants: true } as const;
const draftIdParams = z.object({ draftId: idParam });

export const caseDraftEndpoints = {
  caseDraftCreate: defineEndpoint({
    method: 'POST',
    path: '/api/case/drafts',
    operationId: 'caseDraftCreate',
    summary: "Start a draft of the case form: the fields typed so far (the caller's own)",
    tag,
    access: caseSubmitters,
    body: caseDraftRequest,
    answer: caseDraftSaved,
    errors: [409],
  }),
  caseDraftList: defineEndpoint({
    method: 'GET',
    path: '/api/case/drafts',
    operationId: 'caseDraftList',
    summary: "The caller's drafts, newest first: patient name, step and when saved",
    tag,
    access: caseSubmitters,
    answer: caseDraftSummary.array(),
  }),
  caseDraftGet: defineEndpoint({
    method: 'GET',
    path: '/api/case/drafts/:draftId',
    record: 'draft',
    operationId: 'caseDraftGet',
    summary: "One of the caller's drafts with every field, to restore the form",
    tag,
    access: caseSubmitters,
    params: draftIdParams,
    answer: caseDraft,
    errors: [404],
  }),
  caseDraftSave: defineEndpoint({
    method: 'PUT',
    path: '/api/case/drafts/:draftId',
    record: 'draft',
    operationId: 'caseDraftSave',
    summary: "Replace a draft's fields and files with the form as it is now",
    tag,
    access: caseSubmitters,
    params: draftIdParams,
    body: caseDraftRequest,
    answer: caseDraftSaved,
    errors: [404],
  }),
  caseDraftDelete: defineEndpoint({
    method: 'DELETE',
    path: '/api/case/drafts/:draftId',
    record: 'draft',
    operationId: 'caseDraftDelete',
    summary: "Delete one of the caller's drafts",
    tag,
    access: caseSubmitters,
    params: draftIdParams,
    answer: messageResponse,
    errors: [404],
  }),
};
