import { t } from '@lingui/core/macro';
import { progressViewDistanceCapMm } from '@portal/contract';
import { formatFigure } from '../../../lib/format-number.ts';
import { Color } from 'three';

/** A band of the overlay's colour scale: distances under `belowMm` (and over the band before) in this colour. */
export interface DistanceBand {
  belowMm: number;
  label: string;
  /** For the legend's swatch (sRGB). */
  hex: string;
  /** For the vertices (three.js's working, linear space). */
  rgb: [number, number, number];
}

const rgbOf = (hex: string) => new Color(hex).toArray() as [number, number, number];

const formatMm = (mm: number) => {
  const figure = formatFigure(Number(mm.toFixed(2)));
  return t`${figure} mm`;
};

/**
 * The overlay's scale: green where the scan lies within a quarter millimetre of the planned
 * tooth (about a scanner's and the fit's error together), yellow up to the lab's off-track
 * distance, red past it, and grey from the copy's cap on (the gum, or what the plan has not).
 */
export function distanceBands(offTrackMm: number): DistanceBand[] {
  const green = Math.min(0.25, offTrackMm / 2);
  // The legend's words, in the language shown when called (while rendering).
  const [greenMm, offTrack, cap] = [formatMm(green), formatMm(offTrackMm), formatMm(progressViewDistanceCapMm)];
  const bands = [
    { belowMm: green, label: t`under ${greenMm}`, hex: '#2f9e44' },
    { belowMm: offTrackMm, label: t`${greenMm} to ${offTrack}`, hex: '#f59f00' },
    {
      belowMm: progressViewDistanceCapMm,
      label: t`over ${offTrack} (off track)`,
      hex: '#e03131',
    },
    {
      belowMm: Infinity,
      label: t`gum, or ${cap} and more from the plan`,
      hex: '#adb5bd',
    },
  ];
  return bands.map((band) => ({ ...band, rgb: rgbOf(band.hex) }));
}
