/**
 * Reads a scan's viewing copy off the page's main thread (load-mesh-view.ts starts it): fetches
 * the GLB (the session cookie authorises it), telling the page the share received, decodes it
 * (meshopt, here in the worker itself), and sends back each mesh's streams, its matrix and its
 * bounds, moved rather than copied. On the page, finishing the 1.8 MB download alone was a task of
 * 40 ms quiet and up to 450 ms on a busy machine, before any decoding
 * (docs/decisions/viewer-first-open.md).
 */
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { Box3, BufferAttribute, InterleavedBufferAttribute, Mesh, Sphere, type BufferGeometry } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { MeshFailure } from './mesh-failure.ts';

/** A vertex or index stream as the page rebuilds it into a BufferAttribute. */
export interface MeshStream {
  array:
    | Int8Array<ArrayBuffer>
    | Int16Array<ArrayBuffer>
    | Uint16Array<ArrayBuffer>
    | Uint32Array<ArrayBuffer>
    | Float32Array<ArrayBuffer>;
  itemSize: number;
  normalized: boolean;
}

/** A mesh of the copy: its streams, the matrix mapping its (quantized) positions to millimetres, and its bounds in its own coordinates. */
export interface MeshViewPart {
  position: MeshStream;
  normal: MeshStream;
  index: MeshStream | null;
  matrix: number[];
  box: { min: number[]; max: number[] };
  sphere: { center: number[]; radius: number };
  /** A progress scan's copy: each vertex's distance to the planned stage over the cap (`_DISTANCE`), and its node's extras. */
  distance?: MeshStream;
  extras?: Record<string, unknown>;
}

export type MeshViewWorkerAnswer =
  { progress: number } | { detail: MeshViewPart; overview: MeshViewPart | null } | MeshFailure;

const post = (answer: MeshViewWorkerAnswer, transfer: Transferable[] = []) =>
  (self as unknown as Worker).postMessage(answer, transfer);

/** A plain (not interleaved) copy of an attribute's values, of the same type. */
function streamOf(attribute: BufferAttribute | InterleavedBufferAttribute): MeshStream {
  if (attribute instanceof BufferAttribute) {
    const array = attribute.array as MeshStream['array'];
    // The loader's arrays may be views into the whole GLB: each part gets its own buffer to move.
    const own = array.byteOffset === 0 && array.byteLength === array.buffer.byteLength ? array : array.slice();
    return { array: own, itemSize: attribute.itemSize, normalized: attribute.normalized };
  }
  // Interleaved (a padded stream: 16-bit positions, 8-bit normals): the raw values, copied
  // out as stored (getComponent would denormalize normals into floats the integer array truncates).
  const { data, offset, itemSize, count } = attribute;
  const source = data.array as MeshStream['array'];
  const Kind = source.constructor as new (length: number) => MeshStream['array'];
  const array = new Kind(count * itemSize);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < itemSize; c++) array[i * itemSize + c] = source[i * data.stride + offset + c]!;
  }
  return { array, itemSize: attribute.itemSize, normalized: attribute.normalized };
}

function partOf(mesh: Mesh): MeshViewPart {
  const geometry = mesh.geometry as BufferGeometry;
  // Copies made before normals were added carry none: shading needs them.
  if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  const box = geometry.boundingBox ?? new Box3();
  const sphere = geometry.boundingSphere ?? new Sphere();
  const index = geometry.getIndex();
  return {
    position: streamOf(geometry.getAttribute('position')),
    normal: streamOf(geometry.getAttribute('normal')),
    index: index ? streamOf(index) : null,
    matrix: mesh.matrixWorld.toArray(),
    box: { min: box.min.toArray(), max: box.max.toArray() },
    sphere: { center: sphere.center.toArray(), radius: sphere.radius },
    ...(geometry.getAttribute('_distance') && { distance: streamOf(geometry.getAttribute('_distance')) }),
    ...(Object.keys(mesh.userData).length > 0 && { extras: { ...mesh.userData } }),
  };
}

/** Reads the answer whole, posting the share received (an estimate when it is compressed on the wire). */
async function read(response: Response): Promise<ArrayBuffer> {
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || total === 0) return response.arrayBuffer();
  const chunks: BlobPart[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    post({ progress: Math.min(0.99, received / total) });
  }
  return new Blob(chunks).arrayBuffer();
}

self.onmessage = async (event: MessageEvent<{ url: string }>) => {
  let data: ArrayBuffer;
  try {
    const response = await fetch(event.data.url, { credentials: 'include' });
    if (!response.ok) return post({ error: 'status', status: response.status });
    data = await read(response);
  } catch {
    return post({ error: 'not-downloaded' });
  }
  try {
    await MeshoptDecoder.ready;
    const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parseAsync(data, '');
    gltf.scene.updateMatrixWorld(true);
    const meshes: Mesh[] = [];
    gltf.scene.traverse((object) => {
      if (object instanceof Mesh) meshes.push(object);
    });
    // The copy's full mesh (`detail`) and its simplified `overview`; a copy made before
    // overviews existed has its one mesh.
    const detail = meshes.find((mesh) => mesh.name === 'detail') ?? meshes[0];
    if (!detail) return post({ error: 'no-mesh' });
    const overview = meshes.find((mesh) => mesh.name === 'overview');
    const parts = { detail: partOf(detail), overview: overview ? partOf(overview) : null };
    const buffers = [parts.detail, ...(parts.overview ? [parts.overview] : [])].flatMap((part) =>
      [part.position, part.normal, ...(part.index ? [part.index] : []), ...(part.distance ? [part.distance] : [])].map(
        (stream) => stream.array.buffer,
      ),
    );
    post(parts, [...new Set(buffers)]);
  } catch {
    post({ error: 'copy-unreadable' });
  }
};
