import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { CaseZipEntry } from '../../services/cases/case-files-zip.ts';

/**
 * The entries as one ZIP, streamed: each file is opened only when the ZIP reaches it, so
 * one open read at a time, whatever the number of files. STLs are deflated (level 1: binary
 * STL about halves, at a fraction of the default level's CPU); pictures go as they are.
 * A file that cannot be read, or a reader that goes away, ends the stream and closes the
 * file being read.
 */
export function zipOf(entries: CaseZipEntry[], open: (storageKey: string) => Promise<Readable>): Readable {
  const zip = new ZipFile();
  const output = new PassThrough();
  let reading: Readable | undefined;
  for (const entry of entries) {
    const isStl = entry.contentType === 'model/stl';
    zip.addReadStreamLazy(
      entry.path,
      { size: entry.size, mtime: entry.createdAt, compressionLevel: isStl ? 1 : 0 },
      (done) => {
        open(entry.storageKey).then(
          (stream) => {
            reading = stream;
            done(null, stream);
          },
          (error: unknown) => output.destroy(error as Error),
        );
      },
    );
  }
  zip.on('error', (error: Error) => output.destroy(error));
  output.once('close', () => reading?.destroy());
  zip.outputStream.pipe(output);
  zip.end();
  return output;
}
