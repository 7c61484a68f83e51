import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { formatMm } from '../../../lib/format-number.ts';

/** One point of a tooth's trend: its offset at a done scan. */
export interface TrendPoint {
  stage: number;
  offsetMm: number;
}

const width = 64;
const height = 20;
const pad = 2;

/**
 * A tooth's offset over the case's done scans, oldest first, as a small line (an inline SVG:
 * no chart library for a few points), the latest point marked; its text alternative names
 * each figure. A single scan is no trend: its figure alone.
 */
export function OffsetTrend({ points, thresholdMm }: { points: readonly TrendPoint[]; thresholdMm?: number }) {
  const { t } = useLingui();
  const count = points.length;
  const figures = points
    .map((point) => {
      const offset = formatMm(point.offsetMm, 2);
      const stage = point.stage;
      return t`${offset} at aligner ${stage}`;
    })
    .join(', ');
  const label = t`Offset over ${plural(count, { one: '# scan', other: '# scans' })}: ${figures}`;
  if (points.length < 2) {
    return (
      <span role="img" aria-label={label} style={{ color: 'var(--mantine-color-dimmed)' }}>
        —
      </span>
    );
  }
  const top = Math.max(...points.map((point) => point.offsetMm), thresholdMm ?? 0, 0.1);
  const x = (index: number) => pad + (index * (width - 2 * pad)) / (points.length - 1);
  const y = (value: number) => height - pad - (value / top) * (height - 2 * pad);
  const path = points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.offsetMm).toFixed(1)}`)
    .join(' ');
  const last = points.at(-1)!;
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <title>{label}</title>
      {thresholdMm !== undefined && (
        <line
          x1={pad}
          x2={width - pad}
          y1={y(thresholdMm)}
          y2={y(thresholdMm)}
          stroke="var(--mantine-color-red-4)"
          strokeDasharray="2 2"
          strokeWidth={1}
        />
      )}
      <path d={path} fill="none" stroke="var(--mantine-color-blue-8)" strokeWidth={1.5} />
      <circle cx={x(points.length - 1)} cy={y(last.offsetMm)} r={2.5} fill="var(--mantine-color-blue-8)" />
    </svg>
  );
}
