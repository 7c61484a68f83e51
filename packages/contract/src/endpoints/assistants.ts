import { z } from 'zod';
import { assistantInviteRequest, assistantRow, servedDoctorRow } from '../assistants.ts';
import { idParam, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

const tag = 'assistants';
/** The doctor's own assistants: no staff page or assistant reaches them (docs/decisions/assistants.md § Assistants). */
const doctorsOnly = { pages: [], doctors: true } as const;

export const assistantEndpoints = {
  assistantList: defineEndpoint({
    method: 'GET',
    path: '/api/doctor/assistants',
    operationId: 'assistantList',
    summary: "The signed-in doctor's assistants (revoked ones left out), in name order",
    tag,
    access: doctorsOnly,
    answer: z.array(assistantRow),
  }),
  assistantInvite: defineEndpoint({
    method: 'POST',
    path: '/api/doctor/assistants',
    operationId: 'assistantInvite',
    summary:
      'Invite an assistant by e-mail: a new one gets a link to set their password, an existing assistant is told by e-mail',
    tag,
    access: doctorsOnly,
    body: assistantInviteRequest,
    answer: messageResponse,
    errors: [409, 429],
  }),
  assistantRevoke: defineEndpoint({
    method: 'DELETE',
    path: '/api/doctor/assistants/:assistantUserId',
    operationId: 'assistantRevoke',
    summary: "Revoke an assistant: from their next request they reach none of this doctor's cases",
    tag,
    access: doctorsOnly,
    params: z.object({ assistantUserId: idParam }),
    record: 'assistant',
    answer: messageResponse,
  }),
  assistantDoctors: defineEndpoint({
    method: 'GET',
    path: '/api/assistant/doctors',
    operationId: 'assistantDoctors',
    summary: 'The doctors the signed-in assistant works for, in name order',
    tag,
    access: { pages: [], assistants: true },
    answer: z.array(servedDoctorRow),
  }),
};
