import { clinic, clinicOption, idParams } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isDoctor } from '../../auth/access.ts';
import { notFound } from '../../lib/errors.ts';
import { listClinicsOfDoctor, listClinicsOfUser } from '../../services/clinics.ts';
import { errorResponses, signedInErrors } from '../responses.ts';

/** Staff who manage doctors or cases read any doctor's clinics; a doctor only their own. */
const access = { access: { pages: ['/doctors' as const, '/cases' as const, '/dashboard' as const], doctors: true } };

export const clinicRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_clinics_list/:id',
    {
      config: access,
      schema: {
        tags: ['clinics'],
        params: idParams,
        response: { 200: clinic.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => {
      const user = request.user!;
      if (isDoctor(user) && user.doctorId !== request.params.id) throw notFound('Doctor');
      return listClinicsOfDoctor(app.db, request.params.id);
    },
  );

  app.get(
    '/get_clinics_list_by_user_id/:id',
    {
      config: access,
      schema: {
        tags: ['clinics'],
        params: idParams,
        response: { 200: clinicOption.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => {
      const user = request.user!;
      if (isDoctor(user) && user.userId !== request.params.id) throw notFound('Doctor');
      return listClinicsOfUser(app.db, request.params.id);
    },
  );
};
