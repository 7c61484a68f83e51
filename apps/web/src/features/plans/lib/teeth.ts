/** "13, 23 34" -> [13, 23, 34]; undefined when anything but whole numbers is typed. */
export function parseTeeth(text: string): number[] | undefined {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (!parts.every((part) => /^\d{1,2}$/.test(part))) return undefined;
  return parts.map(Number);
}
