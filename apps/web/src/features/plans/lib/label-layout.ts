/** A label on the screen: its anchor's place (its centre wanted there), its size, in CSS pixels. */
export interface LabelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Space kept between two labels, in CSS pixels. */
const gap = 3;
/** Directions tried around an anchor, up first (over the teeth, where a leader line reads best), then clockwise. */
const directions = Array.from({ length: 12 }, (_, index) => {
  const angle = -Math.PI / 2 + (index * Math.PI) / 6;
  return { dx: Math.cos(angle), dy: Math.sin(angle) };
});

const overlaps = (a: LabelBox, b: LabelBox) =>
  Math.abs(a.x - b.x) < (a.width + b.width) / 2 + gap && Math.abs(a.y - b.y) < (a.height + b.height) / 2 + gap;

/**
 * Where each label goes so that no two overlap (issue 41: an IPR amount under an attachment's
 * badge read "2" for "0.2"): in order, each at its anchor when that is free, otherwise at the
 * nearest free place on rings around it (a leader line then joins them). Earlier labels keep
 * their places, so the caller puts the ones that matter most first. Deterministic: the same
 * boxes give the same places, so the labels do not jump between frames.
 */
export function separateLabels(boxes: LabelBox[]): { x: number; y: number }[] {
  const placed: LabelBox[] = [];
  for (const box of boxes) {
    const step = Math.max(box.width, box.height) / 2 + gap;
    let found: LabelBox | undefined = placed.some((other) => overlaps(box, other)) ? undefined : box;
    for (let ring = 1; !found; ring++) {
      for (const { dx, dy } of directions) {
        const candidate = { ...box, x: box.x + dx * step * (ring + 1), y: box.y + dy * step * (ring + 1) };
        if (!placed.some((other) => overlaps(candidate, other))) {
          found = candidate;
          break;
        }
      }
    }
    placed.push(found);
  }
  return placed.map(({ x, y }) => ({ x, y }));
}
