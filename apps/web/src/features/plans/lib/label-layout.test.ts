import { describe, expect, it } from 'vitest';
import { separateLabels, type LabelBox } from './label-layout.ts';

const apart = (a: LabelBox, b: LabelBox) =>
  Math.abs(a.x - b.x) >= (a.width + b.width) / 2 || Math.abs(a.y - b.y) >= (a.height + b.height) / 2;

describe('separateLabels', () => {
  it('keeps labels that do not overlap at their anchors', () => {
    const boxes = [
      { x: 10, y: 10, width: 20, height: 20 },
      { x: 100, y: 10, width: 40, height: 24 },
    ];
    expect(separateLabels(boxes)).toEqual([
      { x: 10, y: 10 },
      { x: 100, y: 10 },
    ]);
  });

  it('moves an IPR amount off an attachment badge on the same spot, the first one staying', () => {
    const boxes = [
      { x: 200, y: 150, width: 26, height: 26 },
      { x: 202, y: 151, width: 40, height: 24 },
    ];
    const [first, second] = separateLabels(boxes);
    expect(first).toEqual({ x: 200, y: 150 });
    expect(apart({ ...boxes[0]!, ...first! }, { ...boxes[1]!, ...second! })).toBe(true);
  });

  it('never leaves two labels overlapping, however many share one place', () => {
    const boxes = Array.from({ length: 30 }, (_, index) => ({
      x: 300 + (index % 3),
      y: 200 + (index % 2),
      width: index % 2 ? 40 : 28,
      height: 24 + (index % 3),
    }));
    const places = separateLabels(boxes);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(apart({ ...boxes[i]!, ...places[i]! }, { ...boxes[j]!, ...places[j]! }), `${i} and ${j}`).toBe(true);
    // The same boxes, the same places: labels do not jump from one frame to the next.
    expect(separateLabels(boxes)).toEqual(places);
  });
});
