import { endpoints } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { getInbox } from '../../services/inbox.ts';
import { readLabSettings } from '../../services/lab-settings.ts';
import { getMailPreferences, saveMailPreferences } from '../../services/mail-preferences.ts';
import { route } from '../define-route.ts';

/** The caller's inbox across cases and their e-mail preferences (docs/decisions/messages.md § Inbox, § E-mail preferences). */
export async function inboxRoutes(app: FastifyInstance) {
  route(app, endpoints.inboxGet, {}, (request) => getInbox(app.db, request.user, request.query));

  route(app, endpoints.mailPreferencesGet, {}, async (request) => ({
    ...(await getMailPreferences(app.db, request.user.userId)),
    digestHourUtc: (await readLabSettings(app.db)).digestHourUtc,
  }));

  route(
    app,
    endpoints.mailPreferencesSave,
    { audit: { action: 'account.mail_preferences', target: (request) => `user:${request.user?.userId}` } },
    async (request) => {
      await saveMailPreferences(app.db, request.user.userId, request.body);
      return { message: 'E-mail preferences saved' };
    },
  );
}
