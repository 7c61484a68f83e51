import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { listCities, listCountries } from '../../services/geography.ts';
import { route } from '../define-route.ts';

export async function geographyRoutes(app: FastifyInstance) {
  route(app, endpoints.countryList, {}, () => listCountries(app.db));
  route(app, endpoints.cityList, {}, (request) => listCities(app.db, request.params.id));
}
