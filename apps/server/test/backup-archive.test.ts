import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveWriter, manifestName, readArchive } from '../src/backup/archive.ts';
import { BackupError } from '../src/backup/backup-error.ts';

/** An archive of a manifest and two files of `size` bytes each, as `npm run backup` writes one. */
async function archiveOf(size: number): Promise<Buffer> {
  const writer = new ArchiveWriter();
  const bytes = Buffer.alloc(size, 'portal');
  const written = buffer(writer.output);
  await writer.addJson(manifestName, { format: 1 });
  await writer.add('files/cases/1/upper.stl', bytes.length, Readable.from([bytes]));
  await writer.add('files/cases/1/lower.stl', bytes.length, Readable.from([bytes]));
  await writer.finish();
  return written;
}

/** The bytes in 64 KB pieces, as a file is read. */
const piecesOf = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    })(),
  );

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('readArchive', () => {
  it('reads every entry of a whole archive and checks it against the checksums', async () => {
    const names: string[] = [];
    await readArchive(piecesOf(await archiveOf(1_000_000)), async (name, bytes) => {
      names.push(name);
      await buffer(bytes);
    });
    expect(names).toEqual([manifestName, 'files/cases/1/upper.stl', 'files/cases/1/lower.stl']);
  });

  it.each([
    ['inside an entry, while that entry is still being written', 0.6],
    ["inside the next entry's header, while the last one is still being written", -1],
  ])('refuses an archive cut off %s, with one BackupError', async (_where, at) => {
    process.on('unhandledRejection', onUnhandled);
    const whole = await archiveOf(100_000);
    // -1: 100 bytes into the second file's 512-byte header, its name being the header's first field.
    const end = at > 0 ? Math.floor(whole.length * at) : whole.indexOf('files/cases/1/lower.stl') + 100;
    const reading = readArchive(piecesOf(whole.subarray(0, end)), async (_name, bytes) => {
      await buffer(bytes);
      // A slow disk closing the file: meanwhile the parser reaches the cut.
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    await expect(reading).rejects.toThrow(BackupError);
    await expect(reading).rejects.toThrow(/truncated/);
    // A CI run's restore crashed this way: the parser's own error, rejected with no one listening.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).toEqual([]);
  });
});
