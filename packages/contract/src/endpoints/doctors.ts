import { errorResponse, idParams, messageResponse, successResponse } from '../common.ts';
import { doctor, doctorAddRequest, doctorEditRequest, doctorListQuery } from '../doctors.ts';
import { defineEndpoint } from '../endpoint.ts';
import { resetPasswordRequest, resetTokenCheck, tokenParams } from '../password-reset.ts';
import { pictureRemoval, profilePicFile, totalCountHeader } from './common.ts';

const tag = 'doctors';
const manage = { pages: ['/doctors'] } as const;

export const doctorEndpoints = {
  // Staff adding a case pick the doctor from this list too (searching it); paged like the case list.
  doctorList: defineEndpoint({
    method: 'GET',
    path: '/api/doctor/get_doctors_list',
    operationId: 'doctorList',
    summary: 'One page of the doctors, searched; inactive ones alone with active=false',
    tag,
    access: { pages: ['/doctors', '/cases'] },
    query: doctorListQuery,
    answer: doctor.array(),
    answerHeaders: totalCountHeader,
  }),
  doctorGet: defineEndpoint({
    method: 'GET',
    path: '/api/doctor/get_doctor_detail_by_user_Id/:id',
    record: 'doctorUser',
    operationId: 'doctorGet',
    summary: 'A doctor by user id, with clinics; a doctor reads only their own',
    tag,
    access: { pages: ['/doctors'], doctors: true },
    params: idParams,
    answer: doctor.array(),
    errors: [404],
  }),
  // Public self-registration; staff on the Doctors page may also set role and status.
  doctorCreate: defineEndpoint({
    method: 'POST',
    path: '/api/doctor/add',
    operationId: 'doctorCreate',
    summary: 'Register a doctor with clinics (public), or add one from the Doctors page',
    tag,
    access: 'public',
    bodyKind: 'multipart',
    body: doctorAddRequest,
    files: [profilePicFile],
    // DoctorId only for staff: a registration answers alike whether its username was free or taken.
    answer: messageResponse.extend({ DoctorId: doctor.shape.DoctorId.optional() }),
    errors: [409, 413, 415, 429],
  }),
  doctorUpdate: defineEndpoint({
    method: 'PUT',
    path: '/api/doctor/edit/:id',
    record: 'doctor',
    operationId: 'doctorUpdate',
    summary: 'Change a doctor and their clinics; activating one e-mails them',
    tag,
    access: { pages: ['/doctors'], doctors: true },
    params: idParams,
    bodyKind: 'multipart',
    body: doctorEditRequest.extend(pictureRemoval.shape),
    files: [profilePicFile],
    answer: messageResponse,
    errors: [404, 409, 413, 415],
  }),
  doctorDelete: defineEndpoint({
    method: 'DELETE',
    path: '/api/doctor/delete/:id',
    operationId: 'doctorDelete',
    summary: 'Delete a doctor (the row and their cases are kept)',
    tag,
    access: manage,
    params: idParams,
    answer: messageResponse,
    errors: [404],
  }),
  // The list of doctors waiting for activation activates one in a click, without the whole form.
  doctorActivate: defineEndpoint({
    method: 'POST',
    path: '/api/doctor/activate/:id',
    operationId: 'doctorActivate',
    summary: 'Activate a doctor waiting for activation and e-mail them (nothing changes if already active)',
    tag,
    access: manage,
    params: idParams,
    answer: messageResponse,
    errors: [404],
  }),
  doctorRequestPasswordReset: defineEndpoint({
    method: 'POST',
    path: '/api/doctor/request_password_reset/:id',
    operationId: 'doctorRequestPasswordReset',
    summary: "E-mail a doctor a link to set a new password, to the doctor's own address",
    tag,
    access: manage,
    params: idParams,
    answer: messageResponse,
    errors: [404],
  }),
  doctorVerifyResetToken: defineEndpoint({
    method: 'GET',
    path: '/api/doctor/verify_token/:token',
    operationId: 'doctorVerifyResetToken',
    summary: 'Whether a password reset or invitation link is still good (an invitation names who invited)',
    tag,
    access: 'public',
    params: tokenParams,
    answer: resetTokenCheck,
  }),
  doctorResetPassword: defineEndpoint({
    method: 'POST',
    path: '/api/doctor/reset_password',
    operationId: 'doctorResetPassword',
    summary: 'Set a new password with a reset link',
    tag,
    access: 'public',
    body: resetPasswordRequest,
    answer: successResponse,
    errors: [429],
    otherAnswers: {
      400: {
        description: 'The link is unknown, used or expired (success false), or the input is refused',
        schema: successResponse.or(errorResponse),
      },
    },
  }),
};
