import { BufferAttribute, BufferGeometry, Matrix4, PerspectiveCamera, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { orientations, placedAxis, planSamples, scanGeometry, scanSample } from '../testing/generated-arches.ts';
import { archTurn, findArchFrame, framePoints, pointsOf, sampleMesh } from './arch-frame.ts';

const angleTo = (a: Vector3, b: Vector3) => (a.angleTo(b) * 180) / Math.PI;

describe('findArchFrame', () => {
  for (const [name, placed] of Object.entries(orientations)) {
    it(`finds the front, the upper arch and the patient's left of a plan with both arches, ${name}`, () => {
      const frame = findArchFrame(planSamples(['upper', 'lower'], placed));
      expect(frame.found).toBe(true);
      expect(frame.upFrom).toBe('arches');
      for (const axis of ['up', 'front', 'left'] as const)
        expect(angleTo(frame[axis], placedAxis(axis, placed)), axis).toBeLessThan(5);
    });

    it(`finds them for one arch of a plan alone (its crowns' side), ${name}`, () => {
      for (const arch of ['upper', 'lower'] as const) {
        const frame = findArchFrame(planSamples([arch], placed));
        expect(frame.upFrom, arch).toBe('crown area');
        for (const axis of ['up', 'front', 'left'] as const)
          expect(angleTo(frame[axis], placedAxis(axis, placed)), `${arch} ${axis}`).toBeLessThan(5);
      }
    });

    it(`finds them for a scan with a flat base, its crowns up for a lower arch and down for an upper, ${name}`, () => {
      const lower = findArchFrame([scanSample(placed, 'lower')]);
      expect(lower.upFrom).toBe('flat base');
      for (const axis of ['up', 'front', 'left'] as const)
        expect(angleTo(lower[axis], placedAxis(axis, placed)), axis).toBeLessThan(5);
      // The same scan turned over (crowns towards -z) as an upper arch: up is away from its crowns.
      const over = placed.clone().multiply(new Matrix4().makeRotationY(Math.PI));
      const upper = findArchFrame([scanSample(over, 'upper')]);
      expect(angleTo(upper.up, placedAxis('up', placed))).toBeLessThan(5);
      expect(angleTo(upper.front, placedAxis('front', placed))).toBeLessThan(5);
    });
  }

  it('finds the occlusal plane of arches as tall as they are deep (long roots), where the principal axes lean', () => {
    for (const tall of [2, 2.5, 3]) {
      const placed = orientations['turned and moved']!.clone().multiply(new Matrix4().makeScale(1, 1, tall));
      for (const arches of [['upper', 'lower'], ['upper'], ['lower']] as const) {
        const frame = findArchFrame(planSamples([...arches], placed));
        for (const axis of ['up', 'front'] as const)
          expect(angleTo(frame[axis], placedAxis(axis, placed)), `${tall} ${arches.join('+')} ${axis}`).toBeLessThan(5);
      }
    }
  });

  it("keeps the file's axes for what is no arch: a few triangles, a straight row", () => {
    const [few] = planSamples(['upper'], new Matrix4()).map((sample) => ({
      ...sample,
      triangles: sample.triangles.slice(0, 29 * 6),
    }));
    expect(findArchFrame([few!]).found).toBe(false);
    const row = new Float32Array(600 * 6);
    for (let i = 0; i < 600; i++) row.set([i * 0.1, (i % 7) * 0.01, (i % 5) * 0.3, 0, 0, 1], i * 6);
    expect(findArchFrame([{ points: new Float32Array(0), triangles: row }])).toMatchObject({
      found: false,
      up: new Vector3(0, 1, 0),
    });
  });

  it("reads a viewing copy's indexed, quantized positions through its matrix", () => {
    // The scan as a copy stores it: 16-bit positions over the box, an index, and the matrix back to millimetres.
    const scan = scanGeometry();
    const floats = scan.getAttribute('position').array as Float32Array;
    scan.computeBoundingBox();
    const centre = scan.boundingBox!.getCenter(new Vector3());
    const half = scan.boundingBox!.getSize(new Vector3()).multiplyScalar(0.5);
    const quantized = new Int16Array(floats.length);
    for (let i = 0; i < floats.length; i++)
      quantized[i] = Math.round(((floats[i]! - centre.getComponent(i % 3)) / half.getComponent(i % 3)) * 32767);
    const copy = new BufferGeometry()
      .setAttribute('position', new BufferAttribute(quantized, 3, true))
      .setIndex(new BufferAttribute(Uint32Array.from(quantized.keys()).subarray(0, floats.length / 3), 1));
    const matrix = new Matrix4().makeScale(half.x, half.y, half.z).setPosition(centre);
    const [fromCopy, fromStl] = [sampleMesh(copy, matrix, 'lower'), sampleMesh(scan, new Matrix4(), 'lower')];
    for (let i = 0; i < fromStl.points.length; i++) expect(fromCopy.points[i]).toBeCloseTo(fromStl.points[i]!, 2);
  });

  it('reads a sample of a large mesh, not every triangle', () => {
    const sample = scanSample(new Matrix4(), 'lower');
    expect(sample.triangles.length / 6).toBe(3000);
    expect(sample.points.length / 9).toBe(3000);
    expect(angleTo(findArchFrame([sample]).front, placedAxis('front', new Matrix4()))).toBeLessThan(5);
  });
});

describe('framePoints', () => {
  const viewDirection = new Vector3(0.35, 0.35, 1).normalize();
  const viewers = { '1280 px': 1278 / 520, '375 px': 373 / 280 };
  for (const [name, placed] of Object.entries(orientations)) {
    it(`fills the view with the arch at any aspect, ${name}`, () => {
      const samples = planSamples(['upper', 'lower'], placed);
      const turn = archTurn(findArchFrame(samples));
      const points = pointsOf(samples);
      const framing = framePoints(points, turn, viewDirection, 40);
      for (const [width, aspect] of Object.entries(viewers)) {
        const camera = new PerspectiveCamera(40, aspect, 0.1, 10_000);
        const { target, distance } = framing.at(aspect);
        camera.position.copy(target).addScaledVector(viewDirection, distance);
        camera.lookAt(target);
        camera.updateMatrixWorld();
        const [low, high] = [new Vector3(Infinity, Infinity, 0), new Vector3(-Infinity, -Infinity, 0)];
        const p = new Vector3();
        for (let i = 0; i < points.length; i += 3) {
          p.fromArray(points, i).applyQuaternion(turn).project(camera);
          low.min(p);
          high.max(p);
        }
        // Inside the view, and across 80% or more of its width or of its height.
        expect(Math.min(low.x, low.y), width).toBeGreaterThanOrEqual(-1);
        expect(Math.max(high.x, high.y), width).toBeLessThanOrEqual(1);
        expect(Math.max(high.x - low.x, high.y - low.y) / 2, width).toBeGreaterThan(0.8);
      }
    });
  }

  it("turns nothing for a model already in the presets' frame", () => {
    const axes = { left: new Vector3(1, 0, 0), up: new Vector3(0, 1, 0), front: new Vector3(0, 0, 1) };
    expect(archTurn(axes).angleTo(new Quaternion())).toBeLessThan(1e-9);
  });
});
