import { z } from 'zod';
import { idParam } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { locale } from '../locale-schema.ts';

export const prescriptionEndpoints = {
  casePrescription: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/prescription.pdf',
    record: 'case',
    operationId: 'casePrescription',
    summary: "A case's prescription as a printable PDF: patient, doctor, clinic, instructions, tooth chart, files",
    tag: 'cases',
    access: { pages: ['/dashboard'], doctors: true, assistants: true },
    params: z.object({ caseId: idParam }),
    /** The PDF's language: the caller's own (their account's) unless asked for another. */
    query: z.object({ locale: locale.optional() }),
    answer: {
      file: {
        contentTypes: ['application/pdf'],
        description:
          "The prescription, A4, inline as prescription-<trackingNo>.pdf, in the caller's language or `locale`'s",
      },
    },
    errors: [404],
  }),
};
