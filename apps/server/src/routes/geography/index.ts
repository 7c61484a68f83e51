import { city, country, idParams } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listCities, listCountries } from '../../services/geography.ts';
import { errorResponses } from '../responses.ts';

/** Public: the registration form needs them before anyone signs in. */
export const countryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_countries_list',
    {
      config: { access: 'public' },
      schema: { tags: ['geography'], security: [], response: { 200: country.array(), ...errorResponses(503) } },
    },
    () => listCountries(app.db),
  );
};

export const cityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_cities_list/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['geography'],
        security: [],
        params: idParams,
        response: { 200: city.array(), ...errorResponses(400, 404, 503) },
      },
    },
    (request) => listCities(app.db, request.params.id),
  );
};
