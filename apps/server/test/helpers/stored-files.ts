import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file under `folder` (none when it does not exist), with its size and when it was last
 * written. A file removed between the listing and the look at it (the sweep, a rename) is left out.
 */
export async function filesUnder(folder: string): Promise<{ file: string; size: number; modified: number }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const found = await Promise.all(
    files.map(async (file) => {
      const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      return info && { file, size: info.size, modified: info.mtimeMs };
    }),
  );
  return found.filter((entry) => entry !== undefined);
}
