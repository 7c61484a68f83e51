import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { zipOf } from '../../../testing/zips.ts';
import { decodeEntryName, listZipEntries, ZipListingError } from './zip-entries.ts';

// The messages in English, as the code writes them (the words these tests check).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const stl = (size: number) => Buffer.alloc(size, 7);
const blobOf = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

/** A Blob that counts the bytes sliced out of it and read. */
function countingBlob(bytes: Buffer): { blob: Blob; read: () => number } {
  let read = 0;
  const wrap = (blob: Blob): Blob =>
    new Proxy(blob, {
      get(target, key) {
        if (key === 'slice') return (start?: number, end?: number) => wrap(target.slice(start, end));
        if (key === 'arrayBuffer') {
          return async () => {
            read += target.size;
            return target.arrayBuffer();
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { blob: wrap(blobOf(bytes)), read: () => read };
}

describe('listZipEntries', () => {
  it('lists the names in directory order, folders included, from the directory alone', async () => {
    const names = ['upper_00.stl', 'plan/Maxillary Stage 01.stl', 'lower-00.stl'];
    const bytes = await zipOf(
      names.map((name, index) => ({ name, data: stl(200_000 + index) })),
      { folders: ['plan/'] },
    );
    const { blob, read } = countingBlob(bytes);
    expect(await listZipEntries(blob)).toEqual(['plan/', ...names]);
    // The end (the end record after at most 64 KiB of comment) and the directory, whatever the models' size.
    const directorySize = bytes.readUInt32LE(bytes.length - 22 + 12);
    expect(read()).toBe(22 + 0xffff + directorySize);
  });

  it('reads entries written with a data descriptor (sizes after the data)', async () => {
    const bytes = await zipOf([
      { name: 'upper_00.stl', data: stl(5000), streamed: true },
      { name: 'upper_01.stl', data: stl(6000), streamed: true },
    ]);
    // The local header says "sizes follow" (general purpose bit 3): what the directory reader must not depend on.
    expect(bytes.readUInt16LE(6) & 0x8).toBe(0x8);
    expect(await listZipEntries(blobOf(bytes))).toEqual(['upper_00.stl', 'upper_01.stl']);
  });

  it('reads a ZIP64 archive through its ZIP64 end record', async () => {
    const bytes = await zipOf(
      [
        { name: 'upper_00.stl', data: stl(300) },
        { name: 'lower_00.stl', data: stl(300), streamed: true },
      ],
      { zip64: true },
    );
    // The plain end record points to the ZIP64 one: 0xffff entries, 0xffffffff offsets.
    expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(0xffff);
    expect(await listZipEntries(blobOf(bytes))).toEqual(['upper_00.stl', 'lower_00.stl']);
  });

  it('lists 400 entries, the most the server takes, past an archive comment', async () => {
    const names = Array.from({ length: 400 }, (_, index) => `${index % 2 ? 'lower' : 'upper'}_${index >> 1}.stl`);
    const bytes = await zipOf(
      names.map((name) => ({ name, data: stl(64) })),
      { comment: 'Exported by the planning software', compress: true },
    );
    expect(await listZipEntries(blobOf(bytes))).toEqual(names);
  });

  it('refuses what is not a ZIP, or a ZIP cut short, with a ZipListingError', async () => {
    await expect(listZipEntries(blobOf(Buffer.from('solid tooth\nendsolid tooth\n')))).rejects.toThrow(
      'no ZIP directory at its end: not a ZIP, or cut short',
    );
    await expect(listZipEntries(blobOf(Buffer.alloc(10)))).rejects.toThrow('too short to be a ZIP');
    await expect(listZipEntries(blobOf(stl(100_000)))).rejects.toBeInstanceOf(ZipListingError);

    const whole = await zipOf([
      { name: 'upper_00.stl', data: stl(4000) },
      { name: 'upper_01.stl', data: stl(4000) },
    ]);
    // Cut in its data (an upload interrupted): the end record is gone.
    await expect(listZipEntries(blobOf(whole.subarray(0, 3000)))).rejects.toThrow(/cut short/);
    // Cut in its directory, the end record kept: the directory no longer fits before it.
    const directoryOffset = whole.readUInt32LE(whole.length - 22 + 16);
    const cut = Buffer.concat([whole.subarray(0, directoryOffset + 30), whole.subarray(whole.length - 22)]);
    await expect(listZipEntries(blobOf(cut))).rejects.toThrow('the directory lies outside the file');
  });

  it('refuses a directory whose entries are damaged', async () => {
    const bytes = await zipOf([
      { name: 'upper_00.stl', data: stl(100) },
      { name: 'upper_01.stl', data: stl(100) },
    ]);
    const first = bytes.readUInt32LE(bytes.length - 22 + 16);
    const second =
      first + 46 + bytes.readUInt16LE(first + 28) + bytes.readUInt16LE(first + 30) + bytes.readUInt16LE(first + 32);
    const damaged = Buffer.from(bytes);
    damaged.writeUInt32LE(0x12345678, second);
    await expect(listZipEntries(blobOf(damaged))).rejects.toThrow('the directory is damaged at entry 2');
    // A name longer than the directory holds.
    const overlong = Buffer.from(bytes);
    overlong.writeUInt16LE(5000, second + 28);
    await expect(listZipEntries(blobOf(overlong))).rejects.toThrow('the directory is damaged at entry 2');
  });
});

describe('decodeEntryName', () => {
  it('reads UTF-8 when the flag says so, code page 437 otherwise', () => {
    const bytes = new Uint8Array([0x75, 0xe1, 0x81]);
    expect(decodeEntryName(bytes, 0)).toBe('ußü');
    expect(decodeEntryName(new TextEncoder().encode('Stufe_ü_01.stl'), 0x800)).toBe('Stufe_ü_01.stl');
  });
});
