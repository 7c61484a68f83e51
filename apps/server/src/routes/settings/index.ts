import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import {
  labCouriers,
  readLabSettings,
  readUserTimeZone,
  saveLabSettings,
  saveUserTimeZone,
} from '../../services/lab-settings.ts';
import { readUserLocale, saveUserLocale } from '../../services/user-locale.ts';
import { readUserToothNotation, saveUserToothNotation } from '../../services/user-tooth-notation.ts';
import { route } from '../define-route.ts';

/**
 * The lab's settings (the administrator's Settings screen), each user's time zone (docs/decisions/settings.md)
 * language (docs/decisions/languages.md § The user's language on the server) and tooth notation
 * (docs/decisions/tooth-notation.md).
 */
export async function settingsRoutes(app: FastifyInstance) {
  route(app, endpoints.settingsGet, {}, () => readLabSettings(app.db));

  route(app, endpoints.settingsSave, { audit: { action: 'settings.update' } }, async (request) => {
    const { settings, changes } = await saveLabSettings(app.db, request.body, request.user.userId);
    request.auditDetail = { changes };
    return settings;
  });

  route(app, endpoints.couriersGet, {}, async () => ({ couriers: await labCouriers(app.db) }));

  route(app, endpoints.accountTimeZoneGet, {}, async (request) => ({
    timeZone: await readUserTimeZone(app.db, request.user.userId),
    labTimeZone: (await readLabSettings(app.db)).timeZone,
  }));

  route(
    app,
    endpoints.accountTimeZoneSave,
    { audit: { action: 'account.time_zone', target: (request) => `user:${request.user?.userId}` } },
    async (request) => {
      await saveUserTimeZone(app.db, request.user.userId, request.body.timeZone);
      return { message: 'Time zone saved' };
    },
  );

  route(app, endpoints.accountLocaleGet, {}, async (request) => ({
    locale: await readUserLocale(app.db, request.user.userId),
  }));

  route(
    app,
    endpoints.accountLocaleSave,
    { audit: { action: 'account.locale', target: (request) => `user:${request.user?.userId}` } },
    async (request) => {
      const { before, after } = await saveUserLocale(app.db, request.user.userId, request.body.locale);
      request.auditDetail = { changes: { locale: { before, after } } };
      return { locale: after };
    },
  );

  route(app, endpoints.accountToothNotationGet, {}, async (request) => ({
    toothNotation: await readUserToothNotation(app.db, request.user.userId),
  }));

  route(
    app,
    endpoints.accountToothNotationSave,
    { audit: { action: 'account.tooth_notation', target: (request) => `user:${request.user?.userId}` } },
    async (request) => {
      const { before, after } = await saveUserToothNotation(app.db, request.user.userId, request.body.toothNotation);
      request.auditDetail = { changes: { toothNotation: { before, after } } };
      return { toothNotation: after };
    },
  );
}
