import { z } from 'zod';
import type { FileAnswer } from './endpoint.ts';

/** A stored STL's viewing copy: being made, ready (its size and triangles), or failed (why; the viewer shows the original). */
export const meshViewStates = ['pending', 'ready', 'failed'] as const;

export const meshViewAnswer = z.object({
  state: z.enum(meshViewStates),
  bytes: z.number().int().nullable(),
  triangles: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type MeshViewAnswer = z.infer<typeof meshViewAnswer>;

/** A viewing copy's bytes, as the routes of each kind of original that has one answer them. */
export const meshViewMesh = {
  file: {
    contentTypes: ['model/gltf-binary'],
    ranges: false,
    description: 'The viewing copy, once ready (409 while it is being made, or when none could be)',
  },
} as const satisfies FileAnswer;

/**
 * A progress scan's viewing copy in its plan's frame (progressScanView) holds per vertex
 * `_DISTANCE`: its distance to the planned teeth at the worn stage over this many millimetres
 * (0-1); a vertex at 1 is this far or farther (the gum, what the plan has not).
 */
export const progressViewDistanceCapMm = 2;
