import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';
import { pointsOf, type ArchFrame, type ArchSample } from '../../lib/arch-frame.ts';

export const viewPresets = ['front', 'upperOcclusal', 'lowerOcclusal', 'left', 'right'] as const;
export type ViewPreset = (typeof viewPresets)[number];

export const viewPresetLabels: Record<ViewPreset, MessageDescriptor> = {
  front: msg`Front`,
  upperOcclusal: msg`Occlusal upper`,
  lowerOcclusal: msg`Occlusal lower`,
  left: msg`Left`,
  right: msg`Right`,
};

type Axis = [number, number, number];

/**
 * Where each preset looks from and what is up on screen, in the arch's own frame (found from
 * the mesh: lib/arch-frame.ts): +y towards the upper arch, +z out of the mouth, +x the
 * patient's left. An
 * occlusal view shows the biting surface with the front teeth away from the other arch, as
 * the mouth opens (the upper's at the top, the lower's at the bottom).
 */
const presetAxes: Record<ViewPreset, { from: Axis; up: Axis }> = {
  front: { from: [0, 0, 1], up: [0, 1, 0] },
  upperOcclusal: { from: [0, -1, 0], up: [0, 0, 1] },
  lowerOcclusal: { from: [0, 1, 0], up: [0, 0, -1] },
  left: { from: [1, 0, 0], up: [0, 1, 0] },
  right: { from: [-1, 0, 0], up: [0, 1, 0] },
};

/** The arch an occlusal view hides, so that it does not stand between the camera and the other. */
export const archHiddenBy = (preset: ViewPreset): 'upper' | 'lower' | undefined =>
  preset === 'upperOcclusal' ? 'lower' : preset === 'lowerOcclusal' ? 'upper' : undefined;

/** A rotation whose third column is `forward` and whose second is `up` made square to it. */
function basis(forward: Vector3, up: Vector3): Matrix4 {
  const z = forward.clone().normalize();
  const x = up.clone().cross(z).normalize();
  return new Matrix4().makeBasis(x, z.clone().cross(x), z);
}

/** The arch's axes in the model's coordinates; without a frame, the file's own. */
type ArchAxes = Pick<ArchFrame, 'left' | 'up' | 'front'>;
const fileAxes: ArchAxes = { left: new Vector3(1, 0, 0), up: new Vector3(0, 1, 0), front: new Vector3(0, 0, 1) };

/** A direction of the presets' frame (x left, y up, z front) in the model's coordinates. */
const inModel = ([x, y, z]: Axis, arch: ArchAxes) =>
  arch.left.clone().multiplyScalar(x).addScaledVector(arch.up, y).addScaledVector(arch.front, z);

/**
 * The model's turn that shows it as `preset` from a camera at `viewDirection` (world up +y):
 * the preset's side of the arch faces the camera and its up is up on screen. The canvas keeps
 * its camera (lib/model-canvas.ts), so a preset turns the model and fits the view again, which
 * is the same picture as moving the camera round it.
 */
export function presetOrientation(preset: ViewPreset, viewDirection: Vector3, arch: ArchAxes = fileAxes): Quaternion {
  const { from, up } = presetAxes[preset];
  const modelFrame = basis(inModel(from, arch), inModel(up, arch));
  const viewFrame = basis(viewDirection, new Vector3(0, 1, 0));
  return new Quaternion().setFromRotationMatrix(viewFrame.multiply(modelFrame.transpose()));
}

/**
 * The points a preset frames: an occlusal view's own arch (the other is hidden), when the
 * samples name it; otherwise all of them.
 */
export function presetPoints(preset: ViewPreset, samples: ArchSample[]): Float32Array {
  const hidden = archHiddenBy(preset);
  const viewed = samples.filter((sample) => hidden && sample.arch && sample.arch !== hidden);
  return pointsOf(viewed.length > 0 ? viewed : samples);
}

/**
 * Turns a canvas's model to `preset` of its arch and fits the camera to it again, so that the
 * teeth fill the view; the same preset again is the reset after free orbiting.
 */
export function showViewPreset(
  view: { model: Object3D; fit: (points?: Float32Array) => boolean },
  preset: ViewPreset,
  viewDirection: Vector3,
  arch?: { frame: ArchAxes; samples: ArchSample[] },
): void {
  view.model.quaternion.copy(presetOrientation(preset, viewDirection, arch?.frame));
  view.fit(arch && presetPoints(preset, arch.samples));
}
