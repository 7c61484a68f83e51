import { messageResponse, sendEmailRequest } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendTemplateMail } from '../../services/email.ts';
import { signedInErrors } from '../responses.ts';

export const emailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/send',
    {
      config: { access: { pages: ['/doctors'] }, audit: { action: 'email.send' } },
      schema: {
        tags: ['email'],
        body: sendEmailRequest,
        response: { 200: messageResponse, 202: messageResponse, ...signedInErrors },
      },
    },
    async (request, reply) => {
      const isSent = await sendTemplateMail(app.db, app.outbox, request.body);
      return isSent
        ? { message: 'Email sent successfully' }
        : reply.status(202).send({ message: 'The e-mail could not be sent now; it will be retried.' });
    },
  );
};
