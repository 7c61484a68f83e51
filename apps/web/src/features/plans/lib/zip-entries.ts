/**
 * The names in a ZIP, read from its central directory alone (docs/decisions/plans.md § Stage
 * files listed in the browser): the end-of-central-directory record at the end of the file
 * (and the ZIP64 one it points to), then the directory, each read with `Blob.slice`, so a
 * 200 MB ZIP is listed from a few kilobytes and nothing is decompressed. The server reads
 * the ZIP again (yauzl) and has the last word; this only tells the lab what it chose.
 */

import { t } from '@lingui/core/macro';

const endSignature = 0x06054b50;
const zip64LocatorSignature = 0x07064b50;
const zip64EndSignature = 0x06064b50;
const entrySignature = 0x02014b50;
const endLength = 22;
const zip64LocatorLength = 20;
const zip64EndLength = 56;
const entryLength = 46;
const maxCommentLength = 0xffff;
/** The server takes at most 400 entries; a directory this large is not a plan's. */
const maxDirectoryBytes = 16 * 1024 * 1024;
const utf8Flag = 0x800;

/** Why a file's entries cannot be listed: not a ZIP, cut short, damaged, or not one this reads (in the language shown). */
export class ZipListingError extends Error {}

/** Code page 437's upper half, the names' encoding unless their UTF-8 flag is set. */
const cp437High =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

export function decodeEntryName(raw: Uint8Array, flags: number): string {
  if (flags & utf8Flag) return new TextDecoder().decode(raw);
  let name = '';
  for (const byte of raw) name += byte < 0x80 ? String.fromCharCode(byte) : cp437High[byte - 0x80];
  return name;
}

async function read(file: Blob, start: number, end: number): Promise<DataView> {
  const buffer = await file.slice(start, end).arrayBuffer();
  if (buffer.byteLength !== end - start) throw new ZipListingError(t`the file ends early`);
  return new DataView(buffer);
}

function uint64(view: DataView, at: number): number {
  const high = view.getUint32(at + 4, true);
  if (high > 0x1fffff) throw new ZipListingError(t`a ZIP64 size is out of range`);
  return high * 2 ** 32 + view.getUint32(at, true);
}

/** Where the end record starts in `tail`: the last signature whose comment ends the file. */
function findEnd(tail: DataView): number {
  for (let at = tail.byteLength - endLength; at >= 0; at--) {
    if (
      tail.getUint32(at, true) === endSignature &&
      at + endLength + tail.getUint16(at + 20, true) === tail.byteLength
    ) {
      return at;
    }
  }
  throw new ZipListingError(t`no ZIP directory at its end: not a ZIP, or cut short`);
}

/** The names of the ZIP's entries in directory order, folders included; a `ZipListingError` when it cannot. */
export async function listZipEntries(file: Blob): Promise<string[]> {
  if (file.size < endLength) throw new ZipListingError(t`too short to be a ZIP`);
  const tailStart = Math.max(0, file.size - endLength - maxCommentLength);
  const tail = await read(file, tailStart, file.size);
  const at = findEnd(tail);
  const endOffset = tailStart + at;
  if (tail.getUint16(at + 4, true) !== 0 || tail.getUint16(at + 6, true) !== 0) {
    throw new ZipListingError(t`a ZIP split over several files`);
  }
  let count = tail.getUint16(at + 10, true);
  let size = tail.getUint32(at + 12, true);
  let offset = tail.getUint32(at + 16, true);
  let directoryEnd = endOffset;
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    // ZIP64: the locator just before the end record points to the 64-bit end record.
    if (endOffset < zip64LocatorLength) throw new ZipListingError(t`the ZIP64 locator is missing`);
    const locator = await read(file, endOffset - zip64LocatorLength, endOffset);
    if (locator.getUint32(0, true) !== zip64LocatorSignature)
      throw new ZipListingError(t`the ZIP64 locator is missing`);
    const recordOffset = uint64(locator, 8);
    if (recordOffset + zip64EndLength > endOffset - zip64LocatorLength) {
      throw new ZipListingError(t`the ZIP64 end record lies outside the file`);
    }
    const record = await read(file, recordOffset, recordOffset + zip64EndLength);
    if (record.getUint32(0, true) !== zip64EndSignature) throw new ZipListingError(t`the ZIP64 end record is damaged`);
    count = uint64(record, 32);
    size = uint64(record, 40);
    offset = uint64(record, 48);
    directoryEnd = recordOffset;
  }
  if (offset + size > directoryEnd) throw new ZipListingError(t`the directory lies outside the file`);
  if (size > maxDirectoryBytes || count * entryLength > size) throw new ZipListingError(t`the directory is damaged`);
  const directory = await read(file, offset, offset + size);
  const names: string[] = [];
  let position = 0;
  for (let index = 0; index < count; index++) {
    const entry = index + 1;
    if (position + entryLength > size || directory.getUint32(position, true) !== entrySignature) {
      throw new ZipListingError(t`the directory is damaged at entry ${entry}`);
    }
    const flags = directory.getUint16(position + 8, true);
    const nameLength = directory.getUint16(position + 28, true);
    const extraLength = directory.getUint16(position + 30, true);
    const commentLength = directory.getUint16(position + 32, true);
    const nameStart = position + entryLength;
    position = nameStart + nameLength + extraLength + commentLength;
    if (position > size) throw new ZipListingError(t`the directory is damaged at entry ${entry}`);
    const raw = new Uint8Array(directory.buffer, directory.byteOffset + nameStart, nameLength);
    names.push(decodeEntryName(raw, flags));
  }
  return names;
}
