import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { assertOwnRecordIfDoctor } from '../../auth/policy.ts';
import { listClinicsOfDoctor, listClinicsOfUser } from '../../services/clinics.ts';
import { route } from '../define-route.ts';

export async function clinicRoutes(app: FastifyInstance) {
  route(app, endpoints.clinicListOfDoctor, {}, (request) => {
    assertOwnRecordIfDoctor(request.user, { doctorId: request.params.id });
    return listClinicsOfDoctor(app.db, request.params.id);
  });

  route(app, endpoints.clinicListOfUser, {}, (request) => {
    assertOwnRecordIfDoctor(request.user, { userId: request.params.id });
    return listClinicsOfUser(app.db, request.params.id);
  });
}
