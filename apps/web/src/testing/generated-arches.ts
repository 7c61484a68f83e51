import { Euler, Matrix4, Vector3 } from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { planArchStages, scanStl } from '../../../server/test/helpers/dental-meshes.ts';
import { sampleMesh, type ArchName } from '../lib/arch-frame.ts';

/**
 * Arches for the view tests, from the project's own generator
 * (apps/server/test/helpers/dental-meshes.ts), which writes them as real exports do: +z towards
 * the upper arch, the incisors towards -y, the patient's left +x. `orientations` places them in
 * a file's coordinates three ways.
 */
const truth = { up: new Vector3(0, 0, 1), front: new Vector3(0, -1, 0), left: new Vector3(1, 0, 0) };

export const orientations: Record<string, Matrix4> = {
  '+z up (as real exports)': new Matrix4(),
  '+y up': new Matrix4().makeRotationX(-Math.PI / 2),
  'turned and moved': new Matrix4()
    .makeRotationFromEuler(new Euler(0.7, -2.1, 1.3))
    .setPosition(new Vector3(143, -61, 27.5)),
};

const loader = new STLLoader();
const parsed = new Map<string, ReturnType<STLLoader['parse']>>();
/** An STL parsed once per key, as the viewer's worker parses it. */
function generatedStl(key: string, bytes: () => Uint8Array) {
  if (!parsed.has(key)) {
    const data = bytes();
    parsed.set(key, loader.parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer));
  }
  return parsed.get(key)!;
}

/** A plan's stage 0 of `arches` (teeth as closed shells with their roots), placed by `placed`. */
export const planSamples = (arches: ArchName[], placed: Matrix4) =>
  arches.map((arch) =>
    sampleMesh(
      generatedStl(`plan-${arch}`, () => planArchStages(arch, { stages: 0, trianglesPerTooth: 600 }).next().value!),
      placed,
      arch,
    ),
  );

/** A scan of one arch: a closed tube with a flat base and its crowns towards +z. */
export const scanGeometry = (triangles = 60_000) => generatedStl(`scan-${triangles}`, () => scanStl(triangles));

/** That scan's sample, placed by `placed`. */
export const scanSample = (placed: Matrix4, arch?: ArchName, triangles = 60_000) =>
  sampleMesh(scanGeometry(triangles), placed, arch);

/** The generator's axis as the placed file holds it. */
export const placedAxis = (axis: keyof typeof truth, placed: Matrix4) => truth[axis].clone().transformDirection(placed);
