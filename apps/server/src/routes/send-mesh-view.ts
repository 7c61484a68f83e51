import type { MeshViewAnswer } from '@portal/contract';
import type { FastifyReply } from 'fastify';
import type { meshViews } from '../db/schema.ts';
import { conflict } from '../lib/errors.ts';
import type { Storage } from '../storage/storage.ts';

type MeshView = typeof meshViews.$inferSelect;

/** A viewing copy's row as the contract's answer. */
export const meshViewState = (view: MeshView): MeshViewAnswer => ({
  state: view.state,
  bytes: view.viewBytes,
  triangles: view.triangles,
  error: view.error,
});

/** Sends a viewing copy once it is ready: 409 while it is being made, or when none could be. */
export async function sendMeshView(storage: Storage, reply: FastifyReply, view: MeshView) {
  if (view.state !== 'ready')
    throw conflict(view.state === 'pending' ? 'The viewing copy is being made' : 'No viewing copy could be made');
  // Kept by no cache, as every answer under /api/ (plugins/security.ts): it is patient data.
  reply
    .header('content-type', 'model/gltf-binary')
    .header('content-length', view.viewBytes!)
    .header('x-content-type-options', 'nosniff');
  return reply.send(await storage.read(view.viewKey!));
}
