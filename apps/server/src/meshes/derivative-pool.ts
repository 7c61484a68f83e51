import path from 'node:path';
import { Piscina } from 'piscina';
import { AppError, badRequest } from '../lib/errors.ts';
import type { ViewingDerivative } from './derivative.ts';
import { invalidStlMessage } from './stl.ts';

export interface DerivativePoolOptions {
  /** Worker threads converting at once (default 1: a conversion keeps a core busy for seconds). */
  threads?: number;
  /** STLs that may wait for a thread; one more is refused with 503 (default 16). */
  queue?: number;
}

export interface DerivativePool {
  /**
   * The viewing derivative of an STL, made in a worker thread. When `stl` is the whole of
   * its ArrayBuffer (as fs.readFile's is), that buffer moves to the worker and `stl` is left
   * empty; otherwise its bytes are copied.
   */
  convert(stl: Uint8Array): Promise<ViewingDerivative>;
  /** Conversions running in a thread now, and waiting for one. */
  readonly converting: number;
  readonly waiting: number;
  /** Lets running conversions finish, refuses new ones and ends the threads. */
  close(): Promise<void>;
}

/**
 * The worker's entry beside this module, with this module's extension: from the TypeScript
 * source (tests, `npm run dev`) src/meshes/derivative-worker.ts, which Node runs by stripping
 * its types; from the build (`npm start`), where this module is bundled into a file directly
 * in dist/, dist/derivative-worker.js, an entry point of its own in build.ts.
 */
const workerFile = path.join(import.meta.dirname, `derivative-worker${path.extname(import.meta.filename)}`);

/** A thread idle this long ends, giving back the memory a large mesh made it take. */
const idleThreadMs = 30_000;

/**
 * Converts STLs to viewing derivatives off the event loop, in at most `threads`
 * node:worker_threads. piscina (maintained under the Node.js organisation) starts the
 * threads on demand, ends idle ones, replaces one that dies, carries errors back and moves
 * buffers instead of copying them. The queue and its bound are kept here, handing piscina
 * no more tasks than it has threads, so that the counts of converting and waiting STLs are
 * exact at every moment.
 */
export function createDerivativePool({ threads = 1, queue = 16 }: DerivativePoolOptions = {}): DerivativePool {
  const piscina = new Piscina<Uint8Array, ViewingDerivative>({
    filename: workerFile,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: idleThreadMs,
  });
  let converting = 0;
  const waiting: (() => void)[] = [];

  async function takeThread() {
    if (converting < threads) {
      converting++;
      return;
    }
    if (waiting.length >= queue) throw new AppError(503, 'Too many meshes are being converted; try again in a minute.');
    // The conversion that finishes hands its thread over (releaseThread): `converting` stays.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function releaseThread() {
    const next = waiting.shift();
    if (next) next();
    else converting--;
  }

  return {
    async convert(stl) {
      await takeThread();
      try {
        const isWholeBuffer =
          stl.buffer instanceof ArrayBuffer && stl.byteOffset === 0 && stl.byteLength === stl.buffer.byteLength;
        // A copy of a view (`new Uint8Array(view)`; a Buffer's own slice() would be a view again).
        const owned = isWholeBuffer ? stl : new Uint8Array(stl);
        return await piscina.run(owned, { transferList: [owned.buffer as ArrayBuffer] });
      } catch (error) {
        // The worker's errors arrive as plain Errors with their message.
        throw error instanceof Error && error.message.startsWith(invalidStlMessage) ? badRequest(error.message) : error;
      } finally {
        releaseThread();
      }
    },
    get converting() {
      return converting;
    },
    get waiting() {
      return waiting.length;
    },
    close: () => piscina.close(),
  };
}
