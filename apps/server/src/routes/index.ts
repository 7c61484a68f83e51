import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditRoutes } from './audit/index.ts';
import { authRoutes } from './auth/index.ts';
import { caseRoutes } from './cases/index.ts';
import { clinicRoutes } from './clinics/index.ts';
import { doctorRoutes } from './doctors/index.ts';
import { emailRoutes } from './email/index.ts';
import { cityRoutes, countryRoutes } from './geography/index.ts';
import { healthRoutes } from './health/index.ts';
import { permissionRoutes } from './permissions/index.ts';
import { roleRoutes } from './roles/index.ts';
import { uploadRoutes } from './uploads/index.ts';
import { userRoutes } from './users/index.ts';

/** Every API area under /api, at the paths of portal-spec.md section 7. */
export const apiRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(roleRoutes, { prefix: '/role' });
  await app.register(permissionRoutes, { prefix: '/permission' });
  await app.register(userRoutes, { prefix: '/user' });
  await app.register(doctorRoutes, { prefix: '/doctor' });
  await app.register(clinicRoutes, { prefix: '/clinic' });
  await app.register(countryRoutes, { prefix: '/country' });
  await app.register(cityRoutes, { prefix: '/city' });
  await app.register(emailRoutes, { prefix: '/email' });
  await app.register(uploadRoutes, { prefix: '/uploads' });
  await app.register(caseRoutes, { prefix: '/case' });
  await app.register(auditRoutes, { prefix: '/audit' });
};
