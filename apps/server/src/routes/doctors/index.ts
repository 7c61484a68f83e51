import {
  doctor,
  doctorAddRequest,
  doctorEditRequest,
  errorResponse,
  idParams,
  messageResponse,
  registrationSucceeded,
  resetMessages,
  resetPasswordRequest,
  successResponse,
  tokenParams,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { canUsePage } from '../../auth/access.ts';
import {
  createDoctor,
  deleteDoctor,
  getDoctorByUserId,
  listDoctors,
  requestDoctorPasswordReset,
  updateDoctor,
} from '../../services/doctors.ts';
import { isResetTokenValid, resetPassword } from '../../services/password-reset.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { readProfileForm } from '../profile-form.ts';
import { errorResponses, signedInErrors } from '../responses.ts';

const manage = { access: { pages: ['/doctors' as const] } };
const byId = paramTarget({ doctor: 'id' });
const multipartDoc = { consumes: ['multipart/form-data'], tags: ['doctors'] };

export const doctorRoutes: FastifyPluginAsyncZod = async (app) => {
  // Staff adding a case pick the doctor from this list too.
  app.get(
    '/get_doctors_list',
    {
      config: { access: { pages: ['/doctors', '/cases'] } },
      schema: { tags: ['doctors'], response: { 200: doctor.array(), ...signedInErrors } },
    },
    () => listDoctors(app.db),
  );

  app.get(
    '/get_doctor_detail_by_user_Id/:id',
    {
      config: { access: { pages: ['/doctors'], doctors: true } },
      schema: {
        tags: ['doctors'],
        params: idParams,
        response: { 200: doctor.array(), ...signedInErrors, ...errorResponses(404) },
      },
    },
    (request) => getDoctorByUserId(app.db, request.user!, request.params.id),
  );

  // Public self-registration; staff on the Doctors page may also set role and status.
  app.post(
    '/add',
    {
      config: { access: 'public', audit: { action: 'doctor.create' } },
      schema: {
        ...multipartDoc,
        security: [],
        response: {
          200: messageResponse.extend({ DoctorId: doctor.shape.DoctorId }),
          ...errorResponses(400, 409, 413, 415, 503),
        },
      },
    },
    async (request) => {
      const form = await readProfileForm(request, doctorAddRequest);
      const canManage = request.user !== null && canUsePage(request.user, '/doctors');
      const doctorId = await createDoctor(app.db, app.storage, canManage, form.input, form.picture);
      request.auditDetail = { target: `doctor:${doctorId}` };
      return { message: canManage ? 'Doctor added successfully' : registrationSucceeded, DoctorId: doctorId };
    },
  );

  app.put(
    '/edit/:id',
    {
      config: { access: { pages: ['/doctors'], doctors: true }, audit: { action: 'doctor.update', target: byId } },
      schema: {
        ...multipartDoc,
        params: idParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404, 409, 413, 415) },
      },
    },
    async (request) => {
      const form = await readProfileForm(request, doctorEditRequest);
      const { activated } = await updateDoctor(
        { db: app.db, storage: app.storage, outbox: app.outbox, publicUrl: app.config.publicUrl },
        request.user!,
        request.params.id,
        form.input,
        { picture: form.picture, remove: form.removePicture },
      );
      if (activated) request.auditDetail = { action: 'doctor.activate' };
      return {
        message: activated ? 'Doctor activated; the activation e-mail is on its way' : 'Doctor updated successfully',
      };
    },
  );

  app.delete(
    '/delete/:id',
    {
      config: { ...manage, audit: { action: 'doctor.delete', target: byId } },
      schema: {
        tags: ['doctors'],
        params: idParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => {
      await deleteDoctor(app.db, request.params.id);
      return { message: 'Doctor deleted successfully' };
    },
  );

  app.post(
    '/request_password_reset/:id',
    {
      config: { ...manage, audit: { action: 'doctor.password_reset_request', target: byId } },
      schema: {
        tags: ['doctors'],
        params: idParams,
        response: { 200: messageResponse, ...signedInErrors, ...errorResponses(404) },
      },
    },
    async (request) => ({ message: await requestDoctorPasswordReset(app.db, request.params.id, app.config.publicUrl) }),
  );

  app.get(
    '/verify_token/:token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['doctors'],
        security: [],
        params: tokenParams,
        response: { 200: successResponse, ...errorResponses(400, 503) },
      },
    },
    async (request) =>
      (await isResetTokenValid(app.db, request.params.token))
        ? { success: true, message: resetMessages.linkValid }
        : { success: false, message: resetMessages.linkInvalid },
  );

  app.post(
    '/reset_password',
    {
      config: { access: 'public', audit: { action: 'auth.password_reset' } },
      schema: {
        tags: ['doctors'],
        security: [],
        body: resetPasswordRequest,
        response: { 200: successResponse, ...errorResponses(503), 400: successResponse.or(errorResponse) },
      },
    },
    async (request, reply) => {
      const { userId, ...result } = await resetPassword(app.db, request.body.token, request.body.newPassword);
      if (userId) request.auditDetail = { target: `user:${userId}` };
      return reply.status(result.success ? 200 : 400).send(result);
    },
  );
};
