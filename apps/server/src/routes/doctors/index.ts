import { defaultLocale, endpoints, registrationSucceeded, resetLinkMailed, resetMessages } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { canManageDoctors } from '../../auth/policy.ts';
import { paramTarget } from '../../plugins/audit.ts';
import { throttle } from '../../plugins/rate-limit.ts';
import {
  activateDoctor,
  addDoctor,
  deleteDoctor,
  getDoctorByUserId,
  listDoctors,
  registerDoctor,
  requestDoctorPasswordReset,
  updateDoctor,
} from '../../services/doctors.ts';
import { checkResetToken, resetPassword } from '../../services/password-reset.ts';
import { localeOfAcceptLanguage } from '../../services/user-locale.ts';
import { readProfileForm } from '../profile-form.ts';
import { route } from '../define-route.ts';
import { withPictureUrl } from '../urls.ts';

const byId = paramTarget({ doctor: 'id' });
const doctorActivatedMessage = 'Doctor activated; the activation e-mail is on its way';

export const tooManyRequests = 'Too many requests from your address. Please wait a minute and try again.';

export async function doctorRoutes(app: FastifyInstance) {
  // Registration and password reset are anonymous and hash a password (argon2): each address
  // gets the sign-in budget per minute for the two together, counted before the body is read
  // (slow bodies count too). Staff adding doctors are not counted.
  const throttleHashing = throttle(
    app,
    [
      {
        name: 'address',
        max: app.config.loginAttemptsPerAddress,
        timeWindow: '1 minute',
        key: (request) => `hash-address:${request.ip}`,
      },
    ],
    tooManyRequests,
    (request) => !!request.user && canManageDoctors(request.user),
  );

  route(app, endpoints.doctorList, {}, async (request, reply) => {
    const { rows, total } = await listDoctors(app.db, request.query);
    reply.header('x-total-count', total);
    return rows.map(withPictureUrl);
  });

  route(app, endpoints.doctorGet, {}, async (request) =>
    (await getDoctorByUserId(app.db, request.record.userId)).map(withPictureUrl),
  );

  route(
    app,
    endpoints.doctorCreate,
    { audit: { action: 'doctor.create' }, onRequest: throttleHashing },
    async (request) => {
      const form = await readProfileForm(request, endpoints.doctorCreate.body);
      // Staff's browser says nothing of the new doctor's language; a registering doctor's does
      // (docs/decisions/languages.md § The user's language on the server).
      if (canManageDoctors(request.user)) {
        const input = { ...form.input, locale: form.input.locale ?? defaultLocale };
        const doctorId = await addDoctor(app, input, form.picture);
        request.auditDetail = { target: `doctor:${doctorId}` };
        return { message: 'Doctor added successfully', DoctorId: doctorId };
      }
      const input = {
        ...form.input,
        locale: form.input.locale ?? localeOfAcceptLanguage(request.headers['accept-language']),
      };
      // The same answer whether the username was free or taken (issue 20): no DoctorId.
      const { doctorId } = await registerDoctor(app, input, form.picture);
      if (doctorId !== null) request.auditDetail = { target: `doctor:${doctorId}` };
      return { message: registrationSucceeded };
    },
  );

  route(app, endpoints.doctorUpdate, { audit: { action: 'doctor.update', target: byId } }, async (request) => {
    const form = await readProfileForm(request, endpoints.doctorUpdate.body);
    const { activated } = await updateDoctor(
      {
        db: app.db,
        storage: app.storage,
        outbox: app.outbox,
        passwords: app.passwords,
        publicUrl: app.config.publicUrl,
      },
      request.user,
      request.record.doctorId,
      form.input,
      { picture: form.picture, remove: form.removePicture },
    );
    if (activated) request.auditDetail = { action: 'doctor.activate' };
    return {
      message: activated ? doctorActivatedMessage : 'Doctor updated successfully',
    };
  });

  route(app, endpoints.doctorActivate, { audit: { action: 'doctor.activate', target: byId } }, async (request) => {
    const { activated } = await activateDoctor(
      { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl },
      request.params.id,
    );
    return { message: activated ? doctorActivatedMessage : 'The doctor is already active' };
  });

  route(app, endpoints.doctorDelete, { audit: { action: 'doctor.delete', target: byId } }, async (request) => {
    await deleteDoctor(app.db, request.params.id);
    return { message: 'Doctor deleted successfully' };
  });

  route(
    app,
    endpoints.doctorRequestPasswordReset,
    { audit: { action: 'doctor.password_reset_request', target: byId } },
    async (request) => {
      await requestDoctorPasswordReset(
        { db: app.db, outbox: app.outbox, publicUrl: app.config.publicUrl },
        request.params.id,
      );
      return { message: resetLinkMailed };
    },
  );

  route(app, endpoints.doctorVerifyResetToken, {}, async (request) => {
    const link = await checkResetToken(app.db, request.params.token);
    if (!link) return { success: false, message: resetMessages.linkInvalid };
    if (link.kind === 'reset') return { success: true, message: resetMessages.linkValid };
    return {
      success: true,
      message: resetMessages.invitationValid,
      invitation: { invitedBy: link.invitedBy, clinic: link.clinic },
    };
  });

  route(
    app,
    endpoints.doctorResetPassword,
    { audit: { action: 'auth.password_reset' }, onRequest: throttleHashing },
    async (request, reply) => {
      const { userId, ...result } = await resetPassword(app, request.body.token, request.body.newPassword);
      if (userId) request.auditDetail = { target: `user:${userId}` };
      return reply.status(result.success ? 200 : 400).send(result);
    },
  );
}
