import { MeshoptDecoder } from 'meshoptimizer/decoder';

/**
 * meshopt's decoder, its work spread over Web Workers so that decoding never holds the page
 * (the plan viewer's; the scan viewer decodes in its own worker, mesh-view-worker.ts). A module
 * of its own: its WebAssembly is set up when it is first imported, not with the scan viewer.
 */
let decoder: Promise<typeof MeshoptDecoder> | undefined;
export function meshoptDecoder() {
  decoder ??= MeshoptDecoder.ready.then(() => {
    MeshoptDecoder.useWorkers(Math.max(1, Math.min(2, navigator.hardwareConcurrency - 1)));
    return MeshoptDecoder;
  });
  return decoder;
}
