import { z } from 'zod';

/** A stored STL's viewing copy: being made, ready (its size and triangles), or failed (why; the viewer shows the original). */
export const meshViewStates = ['pending', 'ready', 'failed'] as const;

export const meshViewAnswer = z.object({
  state: z.enum(meshViewStates),
  bytes: z.number().int().nullable(),
  triangles: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type MeshViewAnswer = z.infer<typeof meshViewAnswer>;
