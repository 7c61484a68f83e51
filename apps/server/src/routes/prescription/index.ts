import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { findPrescription } from '../../services/prescription/find-prescription.ts';
import { readUserLocale } from '../../services/user-locale.ts';
import { readUserToothNotation } from '../../services/user-tooth-notation.ts';
import { route } from '../define-route.ts';

/**
 * The printable prescription (docs/decisions/case-form.md § Printable prescription), in its
 * reader's language (docs/decisions/languages.md § The prescription PDF in every script).
 */
export async function prescriptionRoutes(app: FastifyInstance) {
  route(
    app,
    endpoints.casePrescription,
    { audit: { action: 'case.print', target: paramTarget({ case: 'caseId' }) } },
    async (request, reply) => {
      const prescription = await findPrescription(app.db, request.user, request.record);
      // The reader's language, or the one asked for (a lab printing for a doctor abroad); rendered per request.
      const locale = request.query.locale ?? (await readUserLocale(app.db, request.user.userId));
      // Teeth in the reader's notation, as on their screens (docs/decisions/tooth-notation.md).
      const notation = await readUserToothNotation(app.db, request.user.userId);
      const fileName = `prescription-${prescription.caseRow.TrackingNo.replace(/[^A-Za-z0-9-]/g, '_')}.pdf`;
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('x-content-type-options', 'nosniff');
      if (request.method === 'HEAD') return reply.send('');
      // pdfkit and its fonts are loaded with the first prescription, not by every start.
      const { renderPrescription } = await import('../../services/prescription/render-prescription.ts');
      return reply.send(renderPrescription(prescription, locale, notation));
    },
  );
}
