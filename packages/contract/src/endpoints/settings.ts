import { z } from 'zod';
import { messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { accountTimeZone, accountTimeZoneAnswer, labSettings } from '../lab-settings.ts';
import { accountLocale, accountLocaleAnswer } from '../locale-schema.ts';
import { accountToothNotation, accountToothNotationAnswer } from '../tooth-notation-schema.ts';

export const settingsEndpoints = {
  settingsGet: defineEndpoint({
    method: 'GET',
    path: '/api/settings',
    operationId: 'settingsGet',
    summary:
      "The lab's settings: turnaround targets, plan step limits, off-track thresholds, the digest hour, the lab's time zone and its couriers",
    tag: 'settings',
    access: 'administrator',
    answer: labSettings,
  }),
  settingsSave: defineEndpoint({
    method: 'PUT',
    path: '/api/settings',
    operationId: 'settingsSave',
    summary:
      "Replace the lab's settings, all sent together; the audit log keeps each changed setting's before and after",
    tag: 'settings',
    access: 'administrator',
    body: labSettings,
    answer: labSettings,
  }),
  // Staff name them at dispatch and everyone follows the tracking links, so any signed-in user reads them.
  couriersGet: defineEndpoint({
    method: 'GET',
    path: '/api/settings/couriers',
    operationId: 'couriersGet',
    summary: "The lab's couriers and their tracking-link patterns ({trackingNumber} where the number goes)",
    tag: 'settings',
    access: 'signedIn',
    answer: z.object({ couriers: labSettings.shape.couriers }),
  }),
  accountTimeZoneGet: defineEndpoint({
    method: 'GET',
    path: '/api/account/time-zone',
    operationId: 'accountTimeZoneGet',
    summary: "The caller's time zone (null until chosen) and the lab's, which stands in until then",
    tag: 'settings',
    access: 'signedIn',
    answer: accountTimeZoneAnswer,
  }),
  accountTimeZoneSave: defineEndpoint({
    method: 'PUT',
    path: '/api/account/time-zone',
    operationId: 'accountTimeZoneSave',
    summary: "Set the caller's time zone, in which the portal and its mails show times",
    tag: 'settings',
    access: 'signedIn',
    body: accountTimeZone,
    answer: messageResponse,
  }),
  // The caller's own account, whatever their role's pages; the web app reads it again after a reload.
  accountLocaleGet: defineEndpoint({
    method: 'GET',
    path: '/api/account/locale',
    operationId: 'accountLocaleGet',
    summary: "The caller's language, in which the portal, its mails and PDFs speak to them",
    tag: 'settings',
    access: 'signedIn',
    answer: accountLocaleAnswer,
  }),
  accountLocaleSave: defineEndpoint({
    method: 'PUT',
    path: '/api/account/locale',
    operationId: 'accountLocaleSave',
    summary: "Set the caller's language (en, de, fr, es, it, pt-BR, pl, tr, ar, zh-CN); answers it as stored",
    tag: 'settings',
    access: 'signedIn',
    body: accountLocale,
    answer: accountLocaleAnswer,
  }),
  // Each user's own, whatever their role's pages (issue 43); teeth on every screen are shown in it.
  accountToothNotationGet: defineEndpoint({
    method: 'GET',
    path: '/api/account/tooth-notation',
    operationId: 'accountToothNotationGet',
    summary:
      "The caller's tooth notation (FDI, Universal or Palmer); until chosen, Universal for a doctor whose first clinic is in the United States, FDI otherwise",
    tag: 'settings',
    access: 'signedIn',
    answer: accountToothNotationAnswer,
  }),
  accountToothNotationSave: defineEndpoint({
    method: 'PUT',
    path: '/api/account/tooth-notation',
    operationId: 'accountToothNotationSave',
    summary: "Set the caller's tooth notation (FDI, Universal or Palmer); answers it as stored",
    tag: 'settings',
    access: 'signedIn',
    body: accountToothNotation,
    answer: accountToothNotationAnswer,
  }),
};
