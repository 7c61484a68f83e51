import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { archHiddenBy, presetOrientation, viewPresets } from './view-presets.ts';

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
