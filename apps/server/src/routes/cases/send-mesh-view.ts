import type { MeshViewAnswer } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { conflict } from '../../lib/errors.ts';
import { findMeshView } from '../../services/mesh-views.ts';

/**
 * A request for the viewing copy of a stored STL, from the routes of each kind of file that
 * has one (a case's attachment, a message's file): the original is the route's record,
 * already resolved in the caller's reach, so the copy has exactly the original's access.
 */
type Original = { record: { storageKey: string } };

/** Whether the copy is being made, ready (its size and triangles) or failed (why); 404 for a file that has none. */
export async function answerMeshView(app: FastifyInstance, { record }: Original): Promise<MeshViewAnswer> {
  const view = await findMeshView(app.db, record.storageKey);
  return { state: view.state, bytes: view.viewBytes, triangles: view.triangles, error: view.error };
}

/** The copy's glTF binary once it is ready, 409 until then (or when none could be made). */
export async function sendMeshView(
  app: FastifyInstance,
  request: Pick<FastifyRequest, 'method'> & Original,
  reply: FastifyReply,
) {
  const view = await findMeshView(app.db, request.record.storageKey);
  if (view.state !== 'ready')
    throw conflict(view.state === 'pending' ? 'The viewing copy is being made' : 'No viewing copy could be made');
  // Immutable: a stored file's copy never changes (a new upload is a new file and id).
  reply
    .header('content-type', 'model/gltf-binary')
    .header('content-length', view.viewBytes!)
    .header('cache-control', 'private, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff');
  return reply.send(request.method === 'HEAD' ? '' : await app.storage.read(view.viewKey!));
}
