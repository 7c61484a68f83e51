import { Readable } from 'node:stream';
import yazl from 'yazl';

interface ZipEntryInput {
  name: string;
  data: Buffer;
  /** Streamed with no size known beforehand: sizes and CRC after the data, in a data descriptor. */
  streamed?: boolean;
}

/** A ZIP written by yazl (the server's own writer, not the reader under test), stored unless `compress`. */
export function zipOf(
  entries: ZipEntryInput[],
  options: { zip64?: boolean; comment?: string; folders?: string[]; compress?: boolean } = {},
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const folder of options.folders ?? []) zip.addEmptyDirectory(folder);
  for (const entry of entries) {
    const entryOptions = { forceZip64Format: options.zip64 ?? false, compress: options.compress ?? false };
    if (entry.streamed) zip.addReadStream(Readable.from([entry.data]), entry.name, entryOptions);
    else zip.addBuffer(entry.data, entry.name, entryOptions);
  }
  zip.end({ forceZip64Format: options.zip64 ?? false, comment: options.comment ?? '' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
