import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';

export const viewPresets = ['front', 'upperOcclusal', 'lowerOcclusal', 'left', 'right'] as const;
export type ViewPreset = (typeof viewPresets)[number];

export const viewPresetLabels: Record<ViewPreset, string> = {
  front: 'Front',
  upperOcclusal: 'Occlusal upper',
  lowerOcclusal: 'Occlusal lower',
  left: 'Left',
  right: 'Right',
};

type Axis = [number, number, number];

/**
 * Where each preset looks from and what is up on screen, in the frame the viewers' default
 * views assume: +y towards the upper arch, +z out of the mouth, +x the patient's left. An
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

/**
 * The model's turn that shows it as `preset` from a camera at `viewDirection` (world up +y):
 * the preset's side faces the camera and its up is up on screen. The canvas keeps its camera
 * (lib/model-canvas.ts), so a preset turns the model and fits the view again, which is the
 * same picture as moving the camera round it.
 */
export function presetOrientation(preset: ViewPreset, viewDirection: Vector3): Quaternion {
  const { from, up } = presetAxes[preset];
  const modelFrame = basis(new Vector3(...from), new Vector3(...up));
  const viewFrame = basis(viewDirection, new Vector3(0, 1, 0));
  return new Quaternion().setFromRotationMatrix(viewFrame.multiply(modelFrame.transpose()));
}

/** Turns a canvas's model to `preset` and fits the camera to it again. */
export function showViewPreset(
  view: { model: Object3D; fit: () => boolean },
  preset: ViewPreset,
  viewDirection: Vector3,
): void {
  view.model.quaternion.copy(presetOrientation(preset, viewDirection));
  view.fit();
}
