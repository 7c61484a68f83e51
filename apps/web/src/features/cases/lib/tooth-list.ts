/** A stored tooth list ('3,14' in Universal numbers; '' or 'N/A' is none) as numbers. */
export function parseToothList(stored: string): number[] {
  return stored
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((tooth) => Number.isInteger(tooth) && tooth >= 1 && tooth <= 32);
}

/** Picks or unpicks one tooth; the list stays in ascending order. */
export function toggleTooth(stored: string, tooth: number): string {
  const teeth = parseToothList(stored);
  const next = teeth.includes(tooth) ? teeth.filter((picked) => picked !== tooth) : [...teeth, tooth];
  return next.sort((a, b) => a - b).join(',');
}
