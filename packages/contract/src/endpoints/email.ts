import { messageResponse } from '../common.ts';
import { sendEmailRequest } from '../email.ts';
import { defineEndpoint } from '../endpoint.ts';

export const emailEndpoints = {
  emailSend: defineEndpoint({
    method: 'POST',
    path: '/api/email/send',
    operationId: 'emailSend',
    summary: 'Send the activation mail, with a fresh link, to an active doctor',
    tag: 'email',
    access: { pages: ['/doctors'] },
    body: sendEmailRequest,
    answer: messageResponse,
    otherAnswers: {
      202: {
        description: 'The mail server did not take it now; it stays in the outbox and is retried',
        schema: messageResponse,
      },
    },
  }),
};
