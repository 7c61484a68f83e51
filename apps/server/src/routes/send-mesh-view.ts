import type { MeshViewAnswer } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { meshViews } from '../db/schema.ts';
import { conflict } from '../lib/errors.ts';
import { findMeshView } from '../services/mesh-views.ts';

type MeshView = typeof meshViews.$inferSelect;

/** A viewing copy's row as the contract's answer: being made, ready (its size and triangles) or failed (why). */
export const meshViewState = (view: MeshView): MeshViewAnswer => ({
  state: view.state,
  bytes: view.viewBytes,
  triangles: view.triangles,
  error: view.error,
});

/** The copy's glTF binary once it is ready (HEAD: its headers), 409 until then or when none could be made. */
export async function sendMeshView(
  app: FastifyInstance,
  request: Pick<FastifyRequest, 'method'>,
  reply: FastifyReply,
  view: MeshView,
) {
  if (view.state !== 'ready')
    throw conflict(view.state === 'pending' ? 'The viewing copy is being made' : 'No viewing copy could be made');
  // Kept by no cache, as every answer under /api/ (plugins/security.ts): it is patient data.
  reply
    .header('content-type', 'model/gltf-binary')
    .header('content-length', view.viewBytes!)
    .header('x-content-type-options', 'nosniff');
  return reply.send(request.method === 'HEAD' ? '' : await app.storage.read(view.viewKey!));
}

/**
 * A stored STL's copy, for the routes of each kind of file that has one (a case's
 * attachment, a message's file): the original is the route's record, already resolved in
 * the caller's reach, so the copy has exactly the original's access; 404 for a file that
 * has none.
 */
type Original = { record: { storageKey: string } };

export async function answerOriginalView(app: FastifyInstance, { record }: Original): Promise<MeshViewAnswer> {
  return meshViewState(await findMeshView(app.db, record.storageKey));
}

export async function sendOriginalView(
  app: FastifyInstance,
  request: Pick<FastifyRequest, 'method'> & Original,
  reply: FastifyReply,
) {
  return sendMeshView(app, request, reply, await findMeshView(app.db, request.record.storageKey));
}
