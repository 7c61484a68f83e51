import { meshViewAnswer } from '@portal/contract';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { Matrix4, Mesh, type BufferGeometry } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { loadStl } from './load-stl.ts';

/** A mesh to show: its geometry and where it sits (a viewing copy's positions are quantized, and its matrix maps them back to millimetres). */
export interface LoadedMesh {
  geometry: BufferGeometry;
  matrix: Matrix4;
  /** Set when the original STL is shown instead of its viewing copy: why. */
  fallback?: string;
  /** The copy's simplified mesh, drawn while the whole model is in view (lighter to draw, the same to the eye there). */
  overview?: { geometry: BufferGeometry; matrix: Matrix4 };
}

/** meshopt's decoder, its work spread over Web Workers so that decoding never holds the page. */
let decoder: Promise<typeof MeshoptDecoder> | undefined;
export function meshoptDecoder() {
  decoder ??= MeshoptDecoder.ready.then(() => {
    MeshoptDecoder.useWorkers(Math.max(1, Math.min(2, navigator.hardwareConcurrency - 1)));
    return MeshoptDecoder;
  });
  return decoder;
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
 * the STL's size or less, decoded in workers) when the server has made it; otherwise the
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
          ? 'its lighter viewing copy is still being made'
          : 'no lighter viewing copy could be made of it',
    };
  }
  const response = await fetch(`${file.viewPath}/mesh.glb`, { credentials: 'include', signal });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  const data = await readWithProgress(response, onProgress);
  const loader = new GLTFLoader().setMeshoptDecoder(await meshoptDecoder());
  const gltf = await loader.parseAsync(data, '');
  gltf.scene.updateMatrixWorld(true);
  const meshes: Mesh[] = [];
  gltf.scene.traverse((object) => {
    if (object instanceof Mesh) meshes.push(object);
  });
  // The copy's full mesh (`detail`) and its simplified `overview`; a copy made before
  // overviews existed has its one mesh.
  const detail = meshes.find((mesh) => mesh.name === 'detail') ?? meshes[0];
  if (!detail) throw new Error('its viewing copy holds no mesh');
  const overview = meshes.find((mesh) => mesh.name === 'overview');
  return {
    ...placed(detail),
    ...(overview && { overview: placed(overview) }),
  };
}

/** A loaded mesh's geometry, with normals (older copies carry none), and the matrix that maps it to millimetres. */
function placed(mesh: Mesh): { geometry: BufferGeometry; matrix: Matrix4 } {
  const geometry = mesh.geometry as BufferGeometry;
  if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
  return { geometry, matrix: mesh.matrixWorld.clone() };
}
