import { Document, Logger, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { meshopt } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { readStl } from './stl.ts';
import { weldVertices, type IndexedMesh } from './weld.ts';

/** What the browser loads to show a mesh: a GLB, beside the original STL kept as uploaded. */
export interface ViewingDerivative {
  glb: Uint8Array;
  triangles: number;
  vertices: number;
}

/** Positions snap to a grid of 2^14 steps over the mesh's largest extent: under 0.01 mm on a 100 mm arch. */
const positionBits = 14;

const io = new NodeIO()
  .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
  .registerDependencies({ 'meshopt.encoder': MeshoptEncoder });

/**
 * The STL as one indexed mesh in a GLB: vertices welded, positions quantized
 * (KHR_mesh_quantization: 16-bit integers, the node's scale and translation map them back
 * to millimetres), vertex and index streams reordered and compressed by meshoptimizer
 * (EXT_meshopt_compression). No normals: the viewer computes them from the triangles.
 * CPU-heavy (about a second per million triangles); the server runs it in a worker
 * (derivative-pool.ts).
 */
export async function makeViewingDerivative(stl: Uint8Array): Promise<ViewingDerivative> {
  const { positions, triangles } = readStl(stl);
  const document = documentOf(weldVertices(positions));
  await MeshoptEncoder.ready;
  await document.transform(meshopt({ encoder: MeshoptEncoder, level: 'high', quantizePosition: positionBits }));
  const [primitive] = document.getRoot().listMeshes()[0]!.listPrimitives();
  const vertices = primitive!.getAttribute('POSITION')!.getCount();
  return { glb: await io.writeBinary(document), triangles, vertices };
}

function documentOf(mesh: IndexedMesh): Document {
  const document = new Document();
  document.setLogger(new Logger(Logger.Verbosity.WARN));
  const buffer = document.createBuffer();
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', document.createAccessor().setType('VEC3').setArray(mesh.positions).setBuffer(buffer))
    .setIndices(document.createAccessor().setType('SCALAR').setArray(mesh.indices).setBuffer(buffer));
  document.createScene().addChild(document.createNode().setMesh(document.createMesh().addPrimitive(primitive)));
  return document;
}
