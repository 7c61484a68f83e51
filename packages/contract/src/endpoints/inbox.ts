import { messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { inboxAnswer, inboxQuery } from '../inbox.ts';
import { mailPreferences, mailPreferencesAnswer } from '../mail-preferences.ts';

export const inboxEndpoints = {
  inboxGet: defineEndpoint({
    method: 'GET',
    path: '/api/inbox',
    operationId: 'inboxGet',
    summary:
      "What waits for the caller across the cases they reach, newest first, 100 a page: unread messages of the other side, and plans awaiting the caller (a doctor's approval; staff: a doctor's change request)",
    tag: 'inbox',
    // Where the cases are: doctors, their assistants, and staff with the Dashboard (docs/decisions/messages.md § Inbox).
    access: { pages: ['/dashboard'], doctors: true, assistants: true },
    query: inboxQuery,
    answer: inboxAnswer,
  }),
  mailPreferencesGet: defineEndpoint({
    method: 'GET',
    path: '/api/account/mail-preferences',
    operationId: 'mailPreferencesGet',
    summary: "The caller's e-mail preferences for case mails (immediate before any save) and the digest's hour",
    tag: 'inbox',
    access: 'signedIn',
    answer: mailPreferencesAnswer,
  }),
  mailPreferencesSave: defineEndpoint({
    method: 'PUT',
    path: '/api/account/mail-preferences',
    operationId: 'mailPreferencesSave',
    summary:
      'Set how the caller gets mails about messages, plans and status: immediately, in a daily digest, or not at all',
    tag: 'inbox',
    access: 'signedIn',
    body: mailPreferences,
    answer: messageResponse,
  }),
};
