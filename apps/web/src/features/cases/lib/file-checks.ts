import { imageExtensions, scanExtensions } from '@portal/contract';
import { fileExtension } from './file-extension.ts';

const hasExtension = (file: File, extensions: readonly string[]) => extensions.includes(fileExtension(file.name));

/** Scans by name: .stl, .zip or .rar. */
export const isScanFile = (file: File) => hasExtension(file, scanExtensions);

/** Photo slots by type: JPEG or PNG. */
export const isPhotoFile = (file: File) => file.type === 'image/jpeg' || file.type === 'image/png';

/** Other files by name: .jpg, .jpeg or .png. */
export const isImageFileName = (file: File) => hasExtension(file, imageExtensions);
