/**
 * Reads an STL off the page's main thread (load-stl.ts starts it): fetches the file (the
 * session cookie authorises it), parses it with three's STLLoader and sends back its
 * positions and normals, moved rather than copied. A 22 MB scan held the page for
 * 150-200 ms when parsed there.
 */
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import type { MeshFailure } from './mesh-failure.ts';

export type StlWorkerAnswer =
  { positions: Float32Array<ArrayBuffer>; normals: Float32Array<ArrayBuffer> | null } | MeshFailure;

const post = (answer: StlWorkerAnswer, transfer: Transferable[] = []) =>
  (self as unknown as Worker).postMessage(answer, transfer);

self.onmessage = async (event: MessageEvent<{ url: string }>) => {
  try {
    const response = await fetch(event.data.url, { credentials: 'include' });
    if (!response.ok) return post({ error: 'status', status: response.status });
    const geometry = new STLLoader().parse(await response.arrayBuffer());
    const positions = geometry.getAttribute('position')?.array as Float32Array<ArrayBuffer> | undefined;
    if (!positions?.length) return post({ error: 'not-stl' });
    const normals = (geometry.getAttribute('normal')?.array as Float32Array<ArrayBuffer> | undefined) ?? null;
    post({ positions, normals }, [positions.buffer, ...(normals ? [normals.buffer] : [])]);
  } catch {
    post({ error: 'not-stl' });
  }
};
