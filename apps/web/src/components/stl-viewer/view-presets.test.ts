import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { findArchFrame } from '../../lib/arch-frame.ts';
import { orientations, placedAxis, planSamples, scanSample } from '../../testing/generated-arches.ts';
import { archHiddenBy, presetOrientation, presetPoints, viewPresets } from './view-presets.ts';

const camera = new Vector3(0.35, 0.35, 1).normalize();
const screenUp = new Vector3(0, 1, 0).projectOnPlane(camera).normalize();
const seenFrom = (preset: (typeof viewPresets)[number], point: [number, number, number]) =>
  new Vector3(...point).applyQuaternion(presetOrientation(preset, camera));

describe('presetOrientation', () => {
  it('turns the side each preset names towards the camera, with its up on screen', () => {
    const expected = {
      front: { facing: [0, 0, 1], up: [0, 1, 0] },
      upperOcclusal: { facing: [0, -1, 0], up: [0, 0, 1] },
      lowerOcclusal: { facing: [0, 1, 0], up: [0, 0, -1] },
      left: { facing: [1, 0, 0], up: [0, 1, 0] },
      right: { facing: [-1, 0, 0], up: [0, 1, 0] },
    } as const;
    for (const preset of viewPresets) {
      const { facing, up } = expected[preset];
      expect(seenFrom(preset, [...facing]).distanceTo(camera), preset).toBeLessThan(1e-6);
      expect(seenFrom(preset, [...up]).distanceTo(screenUp), preset).toBeLessThan(1e-6);
    }
  });

  it('puts the left of the patient on the right of the screen from the front; an occlusal view hides the other arch', () => {
    const screenRight = screenUp.clone().cross(camera);
    expect(seenFrom('front', [1, 0, 0]).dot(screenRight)).toBeCloseTo(1);
    expect(viewPresets.map(archHiddenBy)).toEqual([undefined, 'lower', 'upper', undefined, undefined]);
  });
});

describe('presetOrientation on an arch found in the mesh', () => {
  const degrees = (a: Vector3, b: Vector3) => (a.angleTo(b) * 180) / Math.PI;
  for (const [name, placed] of Object.entries(orientations)) {
    it(`looks at each side of the arch the preset names, ${name}`, () => {
      const frame = findArchFrame(planSamples(['upper', 'lower'], placed));
      const [front, up, left] = [placedAxis('front', placed), placedAxis('up', placed), placedAxis('left', placed)];
      const minus = (v: Vector3) => v.clone().negate();
      // Where the camera is, seen from the arch, and which way of the arch is up on screen.
      const expected = {
        front: { camera: front, screenUp: up }, // in front of the incisors, the upper arch on top
        upperOcclusal: { camera: minus(up), screenUp: front }, // under the upper arch: its biting surface
        lowerOcclusal: { camera: up, screenUp: minus(front) }, // above the lower arch: its biting surface
        left: { camera: left, screenUp: up }, // at the patient's left
        right: { camera: minus(left), screenUp: up },
      };
      for (const preset of viewPresets) {
        const fromArch = presetOrientation(preset, camera, frame).invert();
        expect(degrees(camera.clone().applyQuaternion(fromArch), expected[preset].camera), preset).toBeLessThan(5);
        expect(degrees(screenUp.clone().applyQuaternion(fromArch), expected[preset].screenUp), preset).toBeLessThan(5);
      }
      // From the front, the patient's left is on the right of the screen.
      const screenRight = screenUp.clone().cross(camera);
      expect(
        left
          .clone()
          .applyQuaternion(presetOrientation('front', camera, frame))
          .dot(screenRight),
      ).toBeGreaterThan(0.99);
    });
  }

  it("frames an occlusal view on its own arch's points, the others on all", () => {
    const samples = [...planSamples(['upper'], orientations['+y up']!), scanSample(orientations['+y up']!, 'lower')];
    expect(presetPoints('upperOcclusal', samples)).toEqual(samples[0]!.points);
    expect(presetPoints('lowerOcclusal', samples)).toEqual(samples[1]!.points);
    expect(presetPoints('front', samples).length).toBe(samples[0]!.points.length + samples[1]!.points.length);
  });
});
