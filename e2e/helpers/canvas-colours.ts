import sharp from 'sharp';

/**
 * How many pixels of a 3D view's screenshot show the warm upper scan (or a lone scan) and the
 * blue lower scan; the background is grey (scanColors, apps/web/src/components/stl-viewer).
 */
export async function canvasColours(png: Buffer): Promise<{ upper: number; lower: number }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const counts = { upper: 0, lower: 0 };
  for (let i = 0; i < data.length; i += info.channels) {
    const [red, , blue] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (red - blue > 30) counts.upper++;
    if (blue - red > 40) counts.lower++;
  }
  return counts;
}
