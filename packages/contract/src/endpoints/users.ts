import { accountListQuery } from '../cases.ts';
import { idParams, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { user, userAddRequest, userEditRequest } from '../users.ts';
import { pictureRemoval, profilePicFile, totalCountHeader } from './common.ts';

const tag = 'users';
const manage = { pages: ['/users'] } as const;

export const userEndpoints = {
  userList: defineEndpoint({
    method: 'GET',
    path: '/api/user/get_users_list',
    operationId: 'userList',
    summary: 'One page of the Web users, searched',
    tag,
    access: manage,
    query: accountListQuery,
    answer: user.array(),
    answerHeaders: totalCountHeader,
  }),
  userCreate: defineEndpoint({
    method: 'POST',
    path: '/api/user/add',
    operationId: 'userCreate',
    summary: 'Add a Web user, with an optional profile picture',
    tag,
    access: manage,
    bodyKind: 'multipart',
    body: userAddRequest,
    files: [profilePicFile],
    answer: messageResponse.extend({ UserId: user.shape.UserId }),
    errors: [409, 413, 415],
  }),
  userUpdate: defineEndpoint({
    method: 'PUT',
    path: '/api/user/edit/:id',
    operationId: 'userUpdate',
    summary: 'Change a Web user; a new picture replaces the stored one',
    tag,
    access: manage,
    params: idParams,
    bodyKind: 'multipart',
    body: userEditRequest.extend(pictureRemoval.shape),
    files: [profilePicFile],
    answer: messageResponse,
    errors: [404, 409, 413, 415],
  }),
  userDelete: defineEndpoint({
    method: 'DELETE',
    path: '/api/user/delete/:id',
    operationId: 'userDelete',
    summary: 'Delete a Web user (the row is kept, hidden)',
    tag,
    access: manage,
    params: idParams,
    answer: messageResponse,
    errors: [404, 409],
  }),
};
