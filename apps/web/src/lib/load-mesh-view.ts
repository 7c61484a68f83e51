import { msg } from '@lingui/core/macro';
import { meshViewAnswer } from '@portal/contract';
import { Box3, BufferAttribute, BufferGeometry, Matrix4, Sphere, Vector3 } from 'three';
import { i18n } from './i18n.ts';
import { loadStl } from './load-stl.ts';
import { meshFailureText } from './mesh-failure.ts';
import type { MeshStream, MeshViewPart, MeshViewWorkerAnswer } from './mesh-view-worker.ts';

/** A mesh to show: its geometry and where it sits (a viewing copy's positions are quantized, and its matrix maps them back to millimetres). */
export interface LoadedMesh {
  geometry: BufferGeometry;
  matrix: Matrix4;
  /** Set when the original STL is shown instead of its viewing copy: why. */
  fallback?: string;
  /** The copy's simplified mesh, drawn while the whole model is in view (lighter to draw, the same to the eye there). */
  overview?: { geometry: BufferGeometry; matrix: Matrix4 };
  /** Its node's glTF extras, when it has any (a progress scan's copy: the off-track distance it was measured with). */
  extras?: Record<string, unknown>;
}

/**
 * Reads a response whole, telling `onProgress` the share received (0-1) as it arrives. The
 * length is the encoded one when the answer is compressed, so the share is an estimate
 * and the bytes are gathered as they come; an answer without a length (compressed as it
 * streams) is read whole, its share given when it is in.
 */
export async function readWithProgress(response: Response, onProgress: (share: number) => void): Promise<ArrayBuffer> {
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || total === 0) {
    const data = await response.arrayBuffer();
    onProgress(1);
    return data;
  }
  const chunks: BlobPart[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(Math.min(0.99, received / total));
  }
  onProgress(1);
  return new Blob(chunks).arrayBuffer();
}

/**
 * A stored STL's mesh for the viewer: its viewing copy (a meshopt-compressed glTF a tenth of
 * the STL's size or less, downloaded and decoded in a worker) when the server has made it; otherwise the
 * original STL, with the reason the copy is not there. `viewPath` is where the copy's state is
 * read (a case file's or a message file's), `url` the original's download.
 */
export async function loadMeshView(
  file: { viewPath: string; url: string },
  signal: AbortSignal,
  onProgress: (share: number) => void,
): Promise<LoadedMesh> {
  const stateResponse = await fetch(file.viewPath, { credentials: 'include', signal });
  const state = stateResponse.ok ? meshViewAnswer.parse(await stateResponse.json()) : undefined;
  if (state?.state !== 'ready') {
    const geometry = await loadStl(file.url, signal);
    onProgress(1);
    return {
      geometry,
      matrix: new Matrix4(),
      fallback:
        state?.state === 'pending'
          ? i18n._(
              msg({
                message: 'its lighter viewing copy is still being made',
                comment: "Why the original STL is shown, ending a viewer's sentence",
              }),
            )
          : i18n._(
              msg({
                message: 'no lighter viewing copy could be made of it',
                comment: "Why the original STL is shown, ending a viewer's sentence",
              }),
            ),
    };
  }
  return readCopyInWorker(`${file.viewPath}/mesh.glb`, signal, onProgress);
}

/** A part of a copy as the worker sent it, as a geometry (its bounds given, not computed again here) and its matrix. */
function geometryOf(part: MeshViewPart): { geometry: BufferGeometry; matrix: Matrix4 } {
  const attribute = (stream: MeshStream) => new BufferAttribute(stream.array, stream.itemSize, stream.normalized);
  const geometry = new BufferGeometry()
    .setAttribute('position', attribute(part.position))
    .setAttribute('normal', attribute(part.normal));
  if (part.index) geometry.setIndex(attribute(part.index));
  if (part.distance) geometry.setAttribute('distance', attribute(part.distance));
  geometry.boundingBox = new Box3(new Vector3(...part.box.min), new Vector3(...part.box.max));
  geometry.boundingSphere = new Sphere(new Vector3(...part.sphere.center), part.sphere.radius);
  return { geometry, matrix: new Matrix4().fromArray(part.matrix) };
}

/**
 * Downloads and decodes a viewing copy in a Web Worker (mesh-view-worker.ts): the page only
 * wraps the streams it sends back. Aborting ends the worker, and its download with it.
 */
export function readCopyInWorker(
  url: string,
  signal: AbortSignal,
  onProgress: (share: number) => void,
): Promise<LoadedMesh> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const worker = new Worker(new URL('./mesh-view-worker.ts', import.meta.url), { type: 'module' });
    const end = () => worker.terminate();
    signal.addEventListener(
      'abort',
      () => {
        end();
        reject(signal.reason as Error);
      },
      { once: true },
    );
    worker.onmessage = (event: MessageEvent<MeshViewWorkerAnswer>) => {
      const answer = event.data;
      if ('progress' in answer) return onProgress(answer.progress);
      end();
      if ('error' in answer) return reject(new Error(meshFailureText(answer)));
      onProgress(1);
      resolve({
        ...geometryOf(answer.detail),
        ...(answer.overview && { overview: geometryOf(answer.overview) }),
        ...(answer.detail.extras && { extras: answer.detail.extras }),
      });
    };
    worker.onerror = () => {
      end();
      reject(new Error(meshFailureText({ error: 'copy-unreadable' })));
    };
    // A resolved absolute address: the worker's base is its own script's.
    worker.postMessage({ url: new URL(url, location.href).href });
  });
}
