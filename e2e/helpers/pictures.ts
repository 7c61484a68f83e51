import sharp from 'sharp';

/** A small solid-colour picture, as a person would pick from disk. */
export async function pictureFile(name: string, colour: string, format: 'png' | 'jpeg' = 'png') {
  const image = sharp({ create: { width: 120, height: 120, channels: 3, background: colour } });
  const buffer = format === 'png' ? await image.png().toBuffer() : await image.jpeg().toBuffer();
  return { name, mimeType: format === 'png' ? 'image/png' : 'image/jpeg', buffer };
}

/** A file that is not a picture, for the 'Only JPG and PNG files are allowed!' path. */
export const textFile = (name = 'notes.txt') => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from('not a picture'),
});
