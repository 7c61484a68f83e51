/**
 * Teeth are stored in Universal numbering (1-32: 1 is the upper right third molar, 16 the
 * upper left, 17 the lower left, 32 the lower right) and shown in the case's system.
 */
export type NumberingSystem = 'Universal' | 'FDI' | 'Palmer';

type Quadrant = 'upper right' | 'upper left' | 'lower left' | 'lower right';

/** Quadrant and position from the midline (1 central incisor .. 8 third molar). */
export function toothPosition(universal: number): { quadrant: Quadrant; position: number } {
  if (universal <= 8) return { quadrant: 'upper right', position: 9 - universal };
  if (universal <= 16) return { quadrant: 'upper left', position: universal - 8 };
  if (universal <= 24) return { quadrant: 'lower left', position: 25 - universal };
  return { quadrant: 'lower right', position: universal - 24 };
}

const fdiQuadrant: Record<Quadrant, number> = { 'upper right': 1, 'upper left': 2, 'lower left': 3, 'lower right': 4 };
// Palmer's grid: the corner points at the midline and the occlusal plane.
const palmerSymbol: Record<Quadrant, (position: number) => string> = {
  'upper right': (position) => `${position}┘`,
  'upper left': (position) => `└${position}`,
  'lower left': (position) => `┌${position}`,
  'lower right': (position) => `${position}┐`,
};

export function toothLabel(universal: number, system: NumberingSystem): string {
  const { quadrant, position } = toothPosition(universal);
  if (system === 'FDI') return String(fdiQuadrant[quadrant] * 10 + position);
  if (system === 'Palmer') return palmerSymbol[quadrant](position);
  return String(universal);
}

/** An FDI number (11-48) as Universal (1-32); undefined for any other number. */
export function fdiToUniversal(fdi: number): number | undefined {
  const [quadrant, position] = [Math.floor(fdi / 10), fdi % 10];
  if (position < 1 || position > 8) return undefined;
  const byQuadrant: Record<number, number> = { 1: 9 - position, 2: 8 + position, 3: 25 - position, 4: 24 + position };
  return byQuadrant[quadrant];
}


/** '3, 14' or 'N/A' in Universal, shown as '16, 26' in FDI. */
export function formatToothList(stored: string | null | undefined, system: NumberingSystem): string {
  const teeth = (stored ?? '')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((tooth) => Number.isInteger(tooth) && tooth >= 1 && tooth <= 32);
  return teeth.length === 0 ? 'N/A' : teeth.map((tooth) => toothLabel(tooth, system)).join(', ');
}

/** The picker's rows: 1-8 and 9-16 on top, 32-25 and 24-17 below (docs/spec.md section 2). */
export const toothChartRows = {
  upper: Array.from({ length: 16 }, (_, index) => index + 1),
  lower: Array.from({ length: 16 }, (_, index) => 32 - index),
};
