import { describe, expect, it } from 'vitest';
import { fitProgressScan, type ArchProgress, type PlanArchForFit } from '../src/meshes/progress-fit.ts';
import { readStl } from '../src/meshes/stl.ts';
import { weldVertices } from '../src/meshes/weld.ts';
import type { Arch, PlanOptions } from './helpers/dental-meshes.ts';
import { planArchForFit } from './helpers/progress-plan.ts';
import { difference, progressScan, type ProgressScanOptions } from './helpers/progress-scans.ts';

/**
 * A progress scan against its plan (issue 42), on generated arches shaped as the real ones
 * (progress-scans.ts): each tooth's measured offset and angle against the truth the
 * generator placed it at, and scans that do not fit refused. Smaller meshes than
 * bench/tracking.ts's, which measures accuracy over many cases at full size.
 */

const plan: PlanOptions = { stages: 20, trianglesPerTooth: 4000 };
const thresholds = { offTrackMm: 0.5, offTrackDeg: 2 };
const plans = new Map<Arch, PlanArchForFit>();
const planOf = (arch: Arch) => plans.get(arch) ?? plans.set(arch, planArchForFit(arch, plan)).get(arch)!;

function fit(options: Omit<ProgressScanOptions, 'plan'>, fitted: PlanArchForFit = planOf(options.arch)) {
  const scan = progressScan({ trianglesPerTooth: 12_000, gumTriangles: 30_000, plan, ...options });
  const mesh = weldVertices(readStl(scan.stl).positions);
  return { scan, result: fitProgressScan(fitted, mesh, { stage: options.stage, ...thresholds }) };
}

/** The refusal of a scan that does not fit: its code, and the values given (the others any number). */
const doesNotFit = (params: Record<string, unknown>) => ({
  refused: {
    code: 'progressScanDoesNotFit',
    params: { found: expect.any(Number), teeth: expect.any(Number), needed: expect.any(Number), ...params },
  },
});

function measured(result: ArchProgress) {
  if ('refused' in result) throw new Error(`refused: ${JSON.stringify(result.refused)}`);
  return result;
}

describe('a progress scan against the planned stage', () => {
  it.each([
    { arch: 'lower' as const, frame: undefined },
    { arch: 'upper' as const, frame: { degrees: 140, shiftMm: 20 } },
  ])(
    "measures each $arch tooth within 0.1 mm and 0.5 degrees of where it is, in the scanner's frame",
    ({ arch, frame }) => {
      const first = planOf(arch)
        .teeth.map((tooth) => tooth.tooth)
        .sort((a, b) => a - b)[0]!;
      const [stuck, behind] = [[first + 2, first + 10], first + 5];
      const { scan, result } = fit({ arch, stage: 14, stuck, behind: [{ tooth: behind, mm: 0.2 }], frame, seed: 3 });
      const { teeth, anchorTeeth, rmsMm, notInView } = measured(result);
      expect(notInView).toEqual([]);
      expect(teeth).toHaveLength(14);
      expect(rmsMm).toBeLessThan(0.05);
      // The anchors are the teeth on their planned place; neither stuck tooth nor the one behind.
      for (const tooth of [...stuck, behind]) expect(anchorTeeth).not.toContain(tooth);
      expect(anchorTeeth.length).toBeGreaterThanOrEqual(10);
      for (const tooth of teeth) {
        const planned = scan.planned.find((generated) => generated.universal === tooth.tooth)!;
        const truth = difference(scan.actual.get(tooth.tooth)!, {
          centroid: planned.centroids[14]!,
          rotation: planned.rotations[14]!,
        });
        expect(Math.abs(tooth.offsetMm - truth.mm), `tooth ${tooth.tooth} offset`).toBeLessThan(0.1);
        expect(Math.abs(tooth.angleDeg - truth.degrees), `tooth ${tooth.tooth} angle`).toBeLessThan(0.5);
        expect(tooth.offTrack, `tooth ${tooth.tooth}`).toBe(truth.mm > 0.5 || truth.degrees > 2);
        if (stuck.includes(tooth.tooth)) expect(tooth.matchedStage).toBeLessThan(14);
        if (!stuck.includes(tooth.tooth) && tooth.tooth !== behind) {
          expect(tooth.matchedStage).toBe(14);
          if (tooth.achievedPercent !== null) expect(tooth.achievedPercent).toBeGreaterThanOrEqual(90);
        }
      }
      // The stuck teeth are off track by construction (0.8 mm or 3 degrees at least).
      expect(teeth.filter((tooth) => tooth.offTrack).map((tooth) => tooth.tooth)).toEqual(stuck);
    },
  );

  it('refuses a scan of the other arch', () => {
    const { result } = fit({ arch: 'lower', stage: 10, seed: 5 }, planOf('upper'));
    expect(result).toEqual(doesNotFit({ teeth: 14, found: expect.any(Number) }));
  });

  it("refuses another patient's scan", () => {
    const { result } = fit({ arch: 'lower', stage: 10, seed: 6, patient: { ...plan, seed: 9, scale: 1.12 } });
    expect(result).toEqual(doesNotFit({ teeth: 14, found: expect.any(Number) }));
  });

  it('refuses a scan with too few of the teeth in view', () => {
    const teeth = planOf('lower').teeth.map((tooth) => tooth.tooth);
    const { result } = fit({ arch: 'lower', stage: 10, seed: 8, missing: teeth.slice(3) });
    const refused = doesNotFit({ teeth: 14, needed: 4 });
    expect(result).toEqual(refused);
    expect((result as typeof refused).refused.params.found).toBeLessThanOrEqual(3);
  });
});
