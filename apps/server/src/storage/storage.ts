import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
}

export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded bytes live. Keys are made by the server (never a client's file name);
 * `put` is all-or-nothing: a failed or aborted write leaves no object behind.
 */
export interface Storage {
  put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** Every key under a prefix, for sweeping objects no row points at. */
  list(prefix: string): AsyncIterable<{ key: string; lastModified: Date }>;
  /**
   * Stores whose writes can be left half-done where `list` does not see them (S3 multipart
   * uploads of a killed process): abandons those under a prefix begun before `startedBefore`.
   * Returns how many were abandoned.
   */
  abortUnfinishedWrites?(prefix: string, startedBefore: Date): Promise<number>;
  /**
   * Puts off every deletion until the returned function is called: a backup copying the
   * files of a database snapshot finds every file that snapshot refers to.
   */
  holdDeletions(): () => Promise<void>;
  /** Throws when the store cannot be reached (readiness checks). */
  check(): Promise<void>;
}
