import { BufferAttribute, BufferGeometry } from 'three';
import { meshFailureText } from './mesh-failure.ts';
import type { StlWorkerAnswer } from './stl-worker.ts';

/**
 * Fetches an STL and parses it in a Web Worker (stl-worker.ts), so the page is never held
 * by it; a file with no triangles is refused. Aborting ends the worker, and its download
 * with it. The viewers use it where a file has no viewing copy.
 */
export function loadStl(url: string, signal: AbortSignal): Promise<BufferGeometry> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const worker = new Worker(new URL('./stl-worker.ts', import.meta.url), { type: 'module' });
    const end = () => worker.terminate();
    signal.addEventListener(
      'abort',
      () => {
        end();
        reject(signal.reason as Error);
      },
      { once: true },
    );
    worker.onmessage = (event: MessageEvent<StlWorkerAnswer>) => {
      end();
      const answer = event.data;
      if ('error' in answer) return reject(new Error(meshFailureText(answer)));
      const geometry = new BufferGeometry().setAttribute('position', new BufferAttribute(answer.positions, 3));
      if (answer.normals) geometry.setAttribute('normal', new BufferAttribute(answer.normals, 3));
      resolve(geometry);
    };
    worker.onerror = () => {
      end();
      reject(new Error(meshFailureText({ error: 'unreadable' })));
    };
    // A resolved absolute address: the worker's base is its own script's.
    worker.postMessage({ url: new URL(url, location.href).href });
  });
}
