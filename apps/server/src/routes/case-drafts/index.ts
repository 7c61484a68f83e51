import { endpoints, maxDraftBytes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { paramTarget } from '../../plugins/audit.ts';
import { createDraft, deleteDraft, getDraft, listDrafts, saveDraft } from '../../services/cases/case-drafts.ts';
import { route } from '../define-route.ts';

const draftTarget = paramTarget({ draft: 'draftId' });

/**
 * A draft's body: its fields are checked at maxDraftBytes as UTF-8 JSON, and a client may
 * send the same text escaped (\u00e9 is 6 bytes for 2), so the body gets room for that.
 */
const draftBodyLimit = 4 * maxDraftBytes;

/**
 * The case form's drafts, each its writer's alone (docs/decisions/case-form.md § Drafts). Saves are
 * not audited: the form saves as the doctor types; creating and deleting are.
 */
export async function caseDraftRoutes(app: FastifyInstance) {
  route(
    app,
    endpoints.caseDraftCreate,
    { audit: { action: 'draft.create' }, bodyLimit: draftBodyLimit },
    async (request) => {
      const saved = await createDraft(app.db, request.user, request.body);
      request.auditDetail = { target: `draft:${saved.draftId}` };
      return saved;
    },
  );

  route(app, endpoints.caseDraftList, {}, (request) => listDrafts(app.db, request.user));

  route(app, endpoints.caseDraftGet, {}, (request) => getDraft(app.db, request.user, request.record.draftId));

  route(app, endpoints.caseDraftSave, { bodyLimit: draftBodyLimit }, (request) =>
    saveDraft(app.db, request.user, request.record.draftId, request.body),
  );

  route(app, endpoints.caseDraftDelete, { audit: { action: 'draft.delete', target: draftTarget } }, async (request) => {
    await deleteDraft(app.db, request.user, request.record.draftId);
    return { message: 'Draft deleted' };
  });
}
