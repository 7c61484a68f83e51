import { randomBytes } from 'node:crypto';
import type { Sharp } from 'sharp';
import type { SmallFile } from '../lib/multipart-form.ts';
import { badRequest, codedOnField } from '../lib/errors.ts';
import { deleteKeys } from '../storage/delete-keys.ts';
import type { Storage } from '../storage/storage.ts';

const pictureTypeMessage = 'Only JPG and PNG files are allowed!';
const avatarSizes = [32, 90] as const;

export const pictureStorageKey = (userId: number, fileName: string) => `users/${userId}/${fileName}`;

/** The storage keys of a stored picture (its key as users.profile_pic holds it) and its two avatars. */
export function pictureKeys(pictureKey: string | null): string[] {
  const match = pictureKey && /^(users\/\d+\/[a-f0-9]{16})\.(jpg|png)$/.exec(pictureKey);
  if (!match) return [];
  const [, stem, ext] = match;
  return [pictureKey, ...avatarSizes.map((size) => `${stem}_${size}x${size}.${ext}`)];
}

/**
 * sharp (libvips, its threads and about 20 MB) and file-type are loaded when a picture first
 * arrives, not by every start: most processes never see one.
 */
const loadSharp = async () => (await import('sharp')).default;

/** The most pixels a profile picture may have: 25 megapixels (6000x4000 and less) decode in well under 300 ms. */
const maxPicturePixels = 25_000_000;
const pictureTooLarge = () =>
  codedOnField(400, 'pictureTooLarge', { megapixels: maxPicturePixels / 1_000_000 }, 'profilePic');

/**
 * Refuses a picture over `maxPicturePixels` from its header alone (sharp's metadata does not
 * decode the pixels), before anything costly is done with it.
 */
export async function assertPictureSize(file: SmallFile): Promise<void> {
  const sharp = await loadSharp();
  const metadata = await sharp(file.data)
    .metadata()
    .catch(() => undefined);
  // Unreadable: storeProfilePicture refuses it with its own message.
  if (!metadata?.width || !metadata.height) return;
  if (metadata.width * metadata.height > maxPicturePixels) {
    throw pictureTooLarge();
  }
}

/**
 * Checks the bytes (not the name) are JPEG or PNG and re-encodes them without metadata (GPS
 * and camera data stay out): the picture's files, its 32x32 and 90x90 avatars beside it.
 */
export async function encodeProfilePicture(
  file: SmallFile,
): Promise<{ ext: 'png' | 'jpg'; outputs: { file: string; data: Buffer }[] }> {
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(file.data);
  if (!detected || (detected.mime !== 'image/jpeg' && detected.mime !== 'image/png')) {
    throw badRequest(pictureTypeMessage, { profilePic: pictureTypeMessage });
  }
  await assertPictureSize(file);
  const ext = detected.ext === 'png' ? 'png' : 'jpg';
  const sharp = await loadSharp();
  const encode = (image: Sharp) => (ext === 'png' ? image.png() : image.jpeg({ quality: 85 }));
  const source = () => sharp(file.data, { limitInputPixels: maxPicturePixels }).rotate();
  try {
    const name = randomBytes(8).toString('hex');
    const outputs = [
      {
        file: `${name}.${ext}`,
        data: await encode(source().resize(1024, 1024, { fit: 'inside', withoutEnlargement: true })).toBuffer(),
      },
      ...(await Promise.all(
        avatarSizes.map(async (size) => ({
          file: `${name}_${size}x${size}.${ext}`,
          data: await encode(source().resize(size, size, { fit: 'cover' })).toBuffer(),
        })),
      )),
    ];
    return { ext, outputs };
  } catch {
    throw badRequest('The picture could not be read', { profilePic: 'The picture could not be read' });
  }
}

/** Encodes the picture (encodeProfilePicture), writes it, and returns its key and every key written. */
export async function storeProfilePicture(
  storage: Storage,
  userId: number,
  file: SmallFile,
): Promise<{ key: string; keys: string[] }> {
  const { ext, outputs } = await encodeProfilePicture(file);
  const keys: string[] = [];
  try {
    for (const output of outputs) {
      const key = pictureStorageKey(userId, output.file);
      await storage.put(key, output.data, ext === 'png' ? 'image/png' : 'image/jpeg');
      keys.push(key);
    }
  } catch (error) {
    await deleteKeys(storage, keys);
    throw error;
  }
  return { key: keys[0]!, keys };
}
