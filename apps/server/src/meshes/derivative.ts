import { Document, Logger, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { meshopt } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { overviewOf, vertexNormals } from './overview.ts';
import { invalidStl, readStl } from './stl.ts';
import { weldVertices, withoutDegenerateTriangles, type IndexedMesh } from './weld.ts';

/** What the browser loads to show a mesh: a GLB, beside the original STL kept as uploaded. */
export interface ViewingDerivative {
  glb: Uint8Array;
  triangles: number;
  vertices: number;
}

/** Positions snap to a grid of 2^14 steps over the mesh's largest extent: under 0.01 mm on a 100 mm arch. */
const positionBits = 14;
/** Normals in 8 bits a component: shading shows no difference. */
const normalBits = 8;

export const io = new NodeIO()
  .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
  .registerDependencies({ 'meshopt.encoder': MeshoptEncoder });

/**
 * The STL as indexed meshes in a GLB: vertices welded, positions quantized
 * (KHR_mesh_quantization: 16-bit integers, the node's scale and translation map them back
 * to millimetres), normals as 8-bit integers, vertex and index streams reordered and
 * compressed by meshoptimizer (EXT_meshopt_compression). Two nodes: `detail`, every
 * triangle, and `overview`, the mesh simplified within 0.05 mm (overview.ts) that the
 * viewer draws while the whole model is in view. CPU-heavy (about a second per million
 * triangles); the server runs it in a worker (derivative-pool.ts).
 */
export async function makeViewingDerivative(stl: Uint8Array): Promise<ViewingDerivative> {
  const detail = withoutDegenerateTriangles(weldVertices(readStl(stl).positions));
  const triangles = detail.indices.length / 3;
  if (triangles === 0) throw invalidStl('stlNoArea');
  const overview = await overviewOf(detail);
  const document = newDocument();
  const scene = document.createScene();
  for (const [name, mesh] of [
    ['detail', detail],
    ['overview', overview],
  ] as const) {
    scene.addChild(document.createNode(name).setMesh(meshOf(document, mesh)));
  }
  await compress(document);
  const [primitive] = document.getRoot().listMeshes()[0]!.listPrimitives();
  const vertices = primitive!.getAttribute('POSITION')!.getCount();
  return { glb: await io.writeBinary(document), triangles, vertices };
}

export function newDocument(): Document {
  const document = new Document();
  document.setLogger(new Logger(Logger.Verbosity.WARN));
  document.createBuffer();
  return document;
}

/** A glTF mesh of `mesh`, with its smooth normals (the viewer would compute them otherwise, holding the page). */
export function meshOf(document: Document, mesh: IndexedMesh) {
  const buffer = document.getRoot().listBuffers()[0]!;
  const accessor = (type: 'VEC3' | 'SCALAR', array: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>) =>
    document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', mesh.positions))
    .setAttribute('NORMAL', accessor('VEC3', vertexNormals(mesh)))
    .setIndices(accessor('SCALAR', mesh.indices));
  return document.createMesh().addPrimitive(primitive);
}

/** Quantized and meshopt-compressed, as written. */
export async function compress(document: Document): Promise<void> {
  await MeshoptEncoder.ready;
  await document.transform(
    meshopt({ encoder: MeshoptEncoder, level: 'high', quantizePosition: positionBits, quantizeNormal: normalBits }),
  );
}
