import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { sendTemplateMail } from '../../services/email.ts';
import { route } from '../define-route.ts';

export async function emailRoutes(app: FastifyInstance) {
  route(app, endpoints.emailSend, { audit: { action: 'email.send' } }, async (request, reply) => {
    const isSent = await sendTemplateMail(
      { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl },
      request.body,
    );
    return isSent
      ? { message: 'Email sent successfully' }
      : reply.status(202).send({ message: 'The e-mail could not be sent now; it will be retried.' });
  });
}
