import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { listClinicsOfDoctor, listClinicsOfUser } from '../../services/clinics.ts';
import { route } from '../define-route.ts';

export async function clinicRoutes(app: FastifyInstance) {
  route(app, endpoints.clinicListOfDoctor, {}, (request) => listClinicsOfDoctor(app.db, request.record.doctorId));

  route(app, endpoints.clinicListOfUser, {}, (request) => listClinicsOfUser(app.db, request.record.userId));
}
