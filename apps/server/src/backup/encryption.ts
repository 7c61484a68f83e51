import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { promisify } from 'node:util';
import { BackupError } from './backup-error.ts';

/**
 * An encrypted archive (docs/decisions/backups.md § Backup archives): this magic, a 16-byte salt, then
 * records of `[4-byte length][AES-256-GCM ciphertext][16-byte tag]`, each at most 64 KiB of
 * plaintext. The nonce is the record's index and a final flag, so a record moved, dropped or
 * cut off fails its tag, and an archive without its final record is truncated.
 */
export const encryptedMagic = Buffer.from('aligner-portal-backup/aes-256-gcm/1\n');
const saltBytes = 16;
const chunkBytes = 64 * 1024;
const tagBytes = 16;
const deriveKey = promisify(scrypt) as (
  secret: string,
  salt: Buffer,
  length: number,
  options: object,
) => Promise<Buffer>;

/** scrypt at OWASP's recommended cost, with a salt of the archive's own: a key per archive. */
const keyFor = (secret: string, salt: Buffer) =>
  deriveKey(secret, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });

function nonceOf(index: number, isFinal: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(index), 0);
  nonce.writeUInt32BE(isFinal ? 1 : 0, 8);
  return nonce;
}

/** Encrypts the stream passing through it with a key derived from `secret`. */
export async function encryptingStream(secret: string): Promise<Transform> {
  const salt = randomBytes(saltBytes);
  const header = Buffer.concat([encryptedMagic, salt]);
  const key = await keyFor(secret, salt);
  let index = 0;
  let pending = Buffer.alloc(0);
  const seal = (stream: Transform, plain: Buffer, isFinal: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonceOf(index++, isFinal));
    cipher.setAAD(header);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(sealed.length);
    stream.push(Buffer.concat([length, sealed]));
  };
  return new Transform({
    construct(callback) {
      this.push(header);
      callback();
    },
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending = Buffer.concat([pending, chunk]);
      // Keep at least one byte back: the last record must be the one flagged final.
      while (pending.length > chunkBytes) {
        seal(this, pending.subarray(0, chunkBytes), false);
        pending = pending.subarray(chunkBytes);
      }
      callback();
    },
    flush(callback) {
      seal(this, pending, true);
      callback();
    },
  });
}

const refusedArchive = () =>
  new BackupError(
    'The archive could not be decrypted: BACKUP_KEY is not the key it was made with, or the archive was changed',
  );

/**
 * Decrypts what `encryptingStream` wrote. Only authenticated plaintext comes out: each record
 * is checked before it is passed on. Fails on a wrong key, a changed byte, a missing end.
 */
export function decryptingStream(secret: string): Transform {
  let buffered = Buffer.alloc(0);
  let header: Buffer | undefined;
  let key: Buffer | undefined;
  let index = 0;
  let isDone = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = Buffer.concat([buffered, chunk]);
      readRecords(this).then(() => callback(), callback);
    },
    flush(callback) {
      callback(
        isDone && buffered.length === 0 ? null : new BackupError('The archive is truncated: its end is missing'),
      );
    },
  });

  async function readRecords(stream: Transform) {
    if (!header) {
      if (buffered.length < encryptedMagic.length + saltBytes) return;
      header = buffered.subarray(0, encryptedMagic.length + saltBytes);
      if (!header.subarray(0, encryptedMagic.length).equals(encryptedMagic)) throw refusedArchive();
      key = await keyFor(secret, header.subarray(encryptedMagic.length));
      buffered = buffered.subarray(header.length);
    }
    while (buffered.length >= 4) {
      const length = buffered.readUInt32BE(0);
      if (length < tagBytes || length > chunkBytes + tagBytes) throw refusedArchive();
      if (buffered.length < 4 + length) break;
      if (isDone) throw refusedArchive();
      const sealed = buffered.subarray(4, 4 + length);
      buffered = buffered.subarray(4 + length);
      stream.push(openRecord(key!, header, sealed, index++, () => (isDone = true)));
    }
  }
}

/** One record's plaintext, trying it as an ordinary record and then as the final one. */
function openRecord(key: Buffer, header: Buffer, sealed: Buffer, index: number, onFinal: () => void): Buffer {
  const ciphertext = sealed.subarray(0, sealed.length - tagBytes);
  const tag = sealed.subarray(sealed.length - tagBytes);
  for (const isFinal of [false, true]) {
    const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(index, isFinal));
    decipher.setAAD(header);
    decipher.setAuthTag(tag);
    try {
      const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
      if (isFinal) onFinal();
      return plain;
    } catch {
      // Not this flag: try the other one, then refuse.
    }
  }
  throw refusedArchive();
}
