/**
 * The worker threads' side of derivative-pool.ts: piscina imports this file in each thread
 * and calls its default export once per STL. A file of its own in dist/ too (build.ts).
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { makeViewingDerivative } from './derivative.ts';

export default async function convertStl(stl: Uint8Array): Promise<ReturnType<typeof move>> {
  const derivative = await makeViewingDerivative(stl);
  // The GLB's bytes move to the main thread rather than being copied.
  return move({ [transferableSymbol]: derivative.glb.buffer, [valueSymbol]: derivative });
}
