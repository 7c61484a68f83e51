import SonicBoom from 'sonic-boom';

/** Log lines held while the output does not take them; past this, new lines are dropped. */
const maxQueuedBytes = 16 * 1024 * 1024;

export interface LogDestination {
  /** What pino writes to: never blocks, never throws. */
  stream: { write(line: string): void };
  /** Resolves once what is queued is written, or after `timeoutMs`, whichever comes first. */
  flush(timeoutMs: number): Promise<void>;
}

/**
 * Standard output for pino, written asynchronously and never synchronously flushed.
 * pino's own stdout destination registers a synchronous flush at process exit, and
 * sonic-boom 4.2.1's `flushSync` retries every write error but EAGAIN forever (100 ms
 * apart): with output queued behind a socket nobody reads, `process.exit` never returned
 * (docs/decisions/operations.md § Shutdown and a blocked log output). Here the lines go out through
 * `fs.write` only; once the reader is gone (EPIPE) they are dropped, and the shutdown waits
 * a bounded time for the rest.
 */
export function createLogDestination(fd = 1): LogDestination {
  const output = new SonicBoom({ fd, sync: false, maxLength: maxQueuedBytes });
  let isReaderGone = false;
  // sonic-boom emits 'drain' whenever its queue empties; its own flush(cb) does not wait for that.
  let isIdle = true;
  output.on('drain', () => (isIdle = true));
  output.on('error', (error: NodeJS.ErrnoException) => {
    // Other failures (a full disk) may pass: those lines are kept, up to maxQueuedBytes.
    if (error.code === 'EPIPE' || error.code === 'EBADF') isReaderGone = true;
  });
  return {
    stream: {
      write(line) {
        if (isReaderGone) return;
        isIdle = false;
        output.write(line);
      },
    },
    flush(timeoutMs) {
      return new Promise((resolve) => {
        if (isReaderGone || isIdle) return resolve();
        setTimeout(resolve, timeoutMs).unref();
        output.once('drain', resolve);
      });
    },
  };
}
