import type { PlanArch } from '@portal/contract';
import {
  BufferGeometry,
  CanvasTexture,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineSegments,
  Sprite,
  SpriteMaterial,
  SRGBColorSpace,
  Vector3,
  type Camera,
  type Object3D,
} from 'three';
import { separateLabels } from '../../lib/label-layout.ts';

/** A comment's pin: at its point, on its arch, drawn fully at its stage and faintly at the others. */
export interface Pin {
  commentId: number;
  number: number;
  point: number[];
  arch: PlanArch;
  stage: number;
  /** Open on this version (red), resolved (grey), or a comment on the version before (blue). */
  kind: 'open' | 'resolved' | 'earlier';
}

const colors = {
  open: '#c92a2a',
  resolved: '#495057',
  earlier: '#1864ab',
  ipr: '#d9480f',
  attachment: '#0b7285',
  offTrack: '#c92a2a',
} as const;
type LabelKind = keyof typeof colors;

/** On-screen sizes in CSS pixels: the same at any zoom and on any screen, big enough to read on a phone. */
const sizes = {
  pin: { width: 28, height: 28 },
  selectedPin: { width: 36, height: 36 },
  attachment: { width: 24, height: 24 },
  // An amount ("0.25") needs a pill, not a circle, to stay legible.
  ipr: { width: 42, height: 24 },
  // A tooth's name in any numbering ("UR3", "13"): a pill, as an IPR amount.
  offTrack: { width: 44, height: 26 },
};

/** A badge with a short text: round for a pin or an attachment, a pill for an IPR amount; white text, dark edge. */
function badgeSprite(text: string, kind: LabelKind, size: { width: number; height: number }, isSelected = false) {
  const scale = 4;
  const canvas = document.createElement('canvas');
  canvas.width = size.width * scale;
  canvas.height = size.height * scale;
  const context = canvas.getContext('2d')!;
  const radius = canvas.height / 2;
  const shape = () => {
    context.beginPath();
    context.roundRect(2, 2, canvas.width - 4, canvas.height - 4, radius - 2);
  };
  shape();
  context.fillStyle = colors[kind];
  context.fill();
  context.lineWidth = isSelected ? 10 : 5;
  context.strokeStyle = isSelected ? '#fab005' : '#ffffff';
  context.stroke();
  context.fillStyle = '#ffffff';
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a canvas font (CSS), not words
  context.font = `bold ${Math.round(canvas.height * (text.length > 2 ? 0.5 : 0.56))}px sans-serif`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(text, canvas.width / 2, canvas.height / 2 + scale);
  const texture = new CanvasTexture(canvas);
  // The canvas is drawn in sRGB: marked so, its colours show as drawn (not lightened as linear ones).
  texture.colorSpace = SRGBColorSpace;
  texture.anisotropy = 4;
  const material = new SpriteMaterial({ map: texture, depthTest: false, sizeAttenuation: false });
  const sprite = new Sprite(material);
  sprite.renderOrder = 3;
  return sprite;
}

interface Entry {
  sprite: Sprite;
  /** Where it points, in the model group's coordinates. */
  anchor: Vector3;
  size: { width: number; height: number };
  isShown: boolean;
  /** Laid out first, so it stays on its anchor: the selected pin, then pins at their stage, markers, other pins. */
  rank: number;
  commentId?: number;
}

/**
 * The labels drawn over the teeth: comments' pins and the IPR and attachment markers. Before
 * each frame (`layout`) they are projected to the screen and moved apart where they would
 * overlap (lib/label-layout.ts), a leader line joining a moved label to its point; their size
 * is fixed in CSS pixels. A pin is drawn fully at its stage, faintly at others (its tooth has
 * moved there), hidden with its arch; the selected one is larger, with a yellow ring.
 */
export function createLabels(model: Object3D, container: HTMLElement) {
  const group = new Group();
  const leaders = new LineSegments(
    new BufferGeometry(),
    new LineBasicMaterial({ color: '#212529', depthTest: false, transparent: true, opacity: 0.85 }),
  );
  leaders.renderOrder = 2;
  leaders.frustumCulled = false;
  model.add(group, leaders);
  let pins: (Entry & { pin: Pin })[] = [];
  let markers: Entry[] = [];
  let selected: number | undefined;
  let lastPins: { commentId: number; x: number; y: number; width: number; height: number }[] = [];
  let capacity = 0;

  const clear = (entries: Entry[]) => {
    for (const { sprite } of entries) {
      sprite.material.map?.dispose();
      sprite.material.dispose();
      sprite.removeFromParent();
    }
  };

  let placedAt = { stage: 0, arches: { upper: true, lower: true } as Record<PlanArch, boolean> };
  const placePins = () => {
    for (const entry of pins) {
      const isSelected = entry.pin.commentId === selected;
      entry.isShown = placedAt.arches[entry.pin.arch] || isSelected;
      const isAtStage = entry.pin.stage === placedAt.stage;
      entry.sprite.material.opacity = isAtStage || isSelected ? 1 : 0.45;
      entry.rank = isSelected ? 0 : isAtStage ? 1 : 3;
    }
  };

  return {
    setPins(next: Pin[], selectedId: number | undefined) {
      clear(pins);
      selected = selectedId;
      pins = next.map((pin) => {
        const isSelected = pin.commentId === selectedId;
        const size = isSelected ? sizes.selectedPin : sizes.pin;
        const sprite = badgeSprite(String(pin.number), pin.kind, size, isSelected);
        group.add(sprite);
        return {
          pin,
          sprite,
          anchor: new Vector3().fromArray(pin.point),
          size,
          isShown: true,
          rank: 1,
          commentId: pin.commentId,
        };
      });
      placePins();
    },
    /** The markers, hidden until `placeMarker` puts each at its point. */
    setMarkers(next: { kind: 'ipr' | 'attachment' | 'offTrack'; text: string }[]) {
      clear(markers);
      markers = next.map(({ kind, text }) => {
        const sprite = badgeSprite(text, kind, sizes[kind]);
        group.add(sprite);
        return { sprite, anchor: new Vector3(), size: sizes[kind], isShown: false, rank: 2 };
      });
    },
    placeMarker(index: number, at: Vector3 | undefined) {
      const entry = markers[index]!;
      entry.isShown = at !== undefined;
      if (at) entry.anchor.copy(at);
    },
    /** The stage shown and the arches visible: which pins are drawn fully, faintly or not at all. */
    placePins(stage: number, arches: Record<PlanArch, boolean>) {
      placedAt = { stage, arches };
      placePins();
    },
    /** Before a frame: each shown label where it does not overlap another, at its size on screen. */
    layout(camera: Camera) {
      const width = container.clientWidth;
      const height = container.clientHeight;
      const focal = camera.projectionMatrix.elements[5]!;
      const entries = [...pins, ...markers].filter((entry) => entry.isShown).sort((a, b) => a.rank - b.rank);
      const hidden = [...pins, ...markers].filter((entry) => !entry.isShown);
      for (const entry of hidden) entry.sprite.visible = false;
      model.updateMatrixWorld();
      const projected = entries.map((entry) => model.localToWorld(entry.anchor.clone()).project(camera));
      const inView = entries.filter((_, index) => Math.abs(projected[index]!.z) <= 1);
      const depths = projected.filter((point) => Math.abs(point.z) <= 1);
      const boxes = depths.map((point, index) => ({
        x: ((point.x + 1) / 2) * width,
        y: ((1 - point.y) / 2) * height,
        ...inView[index]!.size,
      }));
      const places = width && height ? separateLabels(boxes) : boxes;
      const lines: number[] = [];
      lastPins = [];
      entries.forEach((entry) => (entry.sprite.visible = inView.includes(entry)));
      inView.forEach((entry, index) => {
        const place = places[index]!;
        const box = boxes[index]!;
        const world = new Vector3((place.x / width) * 2 - 1, 1 - (place.y / height) * 2, depths[index]!.z).unproject(
          camera,
        );
        entry.sprite.position.copy(model.worldToLocal(world));
        entry.sprite.scale.set(
          (2 * entry.size.width) / (height * focal),
          (2 * entry.size.height) / (height * focal),
          1,
        );
        entry.sprite.updateMatrixWorld();
        if (Math.hypot(place.x - box.x, place.y - box.y) > 2) {
          lines.push(...entry.anchor.toArray(), ...entry.sprite.position.toArray());
        }
        if (entry.commentId !== undefined) lastPins.push({ commentId: entry.commentId, ...place, ...entry.size });
      });
      // One buffer, grown when needed and updated in place: a new one each frame would leave the old ones on the GPU.
      if (lines.length > capacity) {
        capacity = Math.max(lines.length, 2 * capacity, 60);
        leaders.geometry.dispose();
        leaders.geometry = new BufferGeometry();
        leaders.geometry.setAttribute('position', new Float32BufferAttribute(new Float32Array(capacity), 3));
      }
      const position = leaders.geometry.getAttribute('position') as Float32BufferAttribute | undefined;
      if (position) {
        (position.array as Float32Array).set(lines);
        position.needsUpdate = true;
      }
      leaders.geometry.setDrawRange(0, lines.length / 3);
      leaders.visible = lines.length > 0;
    },
    /** The comment whose pin is under a click (clientX, clientY), as last drawn; topmost first. */
    pinAt(clientX: number, clientY: number): number | undefined {
      const rect = container.getBoundingClientRect();
      const [x, y] = [clientX - rect.left, clientY - rect.top];
      return lastPins.find(
        (pin) => Math.abs(pin.x - x) <= pin.width / 2 + 2 && Math.abs(pin.y - y) <= pin.height / 2 + 2,
      )?.commentId;
    },
    dispose() {
      clear(pins);
      clear(markers);
      pins = [];
      markers = [];
      leaders.geometry.dispose();
      leaders.material.dispose();
    },
  };
}
