import { scaled } from '../../../../e2e/helpers/test-time.ts';

/**
 * Checks `condition` every `everyMs` until it holds; throws naming `what` after `timeoutMs`
 * times the run's factor (e2e/helpers/test-time.ts).
 * For the tests that watch a real process (its files, its log, its answers), where
 * vi.waitFor's assertion form does not fit.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs, everyMs }: { timeoutMs: number; everyMs: number },
): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Lets the wall clock pass the files just written. A file's modification time, read back as a
 * Date, can be 1 ms after a Date.now() taken after the write (ext4's fine-grained timestamps,
 * rounded): a sweep with no grace period then still counts it as recent.
 */
export function clockPastWrites(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 3));
}
