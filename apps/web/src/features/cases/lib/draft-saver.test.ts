import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftSaver, type DraftSaveState } from './draft-saver.ts';

type Draft = { name: string };

function setUp(start: { draftId: number | null; draft: Draft } = { draftId: null, draft: { name: '' } }) {
  const calls: string[] = [];
  const states: DraftSaveState[] = [];
  let failNext = false;
  let release: (() => void) | null = null;
  let isHeld = false;
  const gate = () =>
    isHeld
      ? new Promise<void>((resolve) => {
          release = resolve;
        })
      : Promise.resolve();
  const saver = createDraftSaver<Draft>(
    {
      create: async (draft) => {
        calls.push(`create ${draft.name}`);
        await gate();
        if (failNext) throw new Error('offline');
        return 7;
      },
      update: async (draftId, draft) => {
        calls.push(`update ${draftId} ${draft.name}`);
        await gate();
        if (failNext) throw new Error('offline');
      },
      onState: (state) => states.push(state),
      delayMs: 1000,
    },
    start,
  );
  return {
    saver,
    calls,
    states,
    fail: (value: boolean) => (failNext = value),
    hold: () => (isHeld = true),
    release: () => {
      isHeld = false;
      release?.();
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the draft saver', () => {
  it('saves nothing for a form left as it started', async () => {
    const { saver, calls } = setUp();
    saver.change({ name: '' });
    await vi.advanceTimersByTimeAsync(5000);
    await saver.flush();
    expect(calls).toEqual([]);
    expect(saver.hasUnsavedChanges()).toBe(false);
  });

  it('waits for a pause in typing, creates the draft once, then updates it', async () => {
    const { saver, calls, states } = setUp();
    saver.change({ name: 'A' });
    await vi.advanceTimersByTimeAsync(600);
    saver.change({ name: 'Ad' });
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toEqual([]);
    expect(saver.hasUnsavedChanges()).toBe(true);
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toEqual(['create Ad']);
    expect(saver.draftId()).toBe(7);
    expect(states.at(-1)).toBe('saved');
    saver.change({ name: 'Ada' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['create Ad', 'update 7 Ada']);
    expect(saver.hasUnsavedChanges()).toBe(false);
  });

  it('is not put off by the same draft handed again and again (an upload re-rendering the form)', async () => {
    const { saver, calls } = setUp();
    saver.change({ name: 'Ada' });
    for (let tick = 0; tick < 30; tick++) {
      await vi.advanceTimersByTimeAsync(100);
      saver.change({ name: 'Ada' });
    }
    expect(calls).toEqual(['create Ada']);
  });

  it('saves at once on flush (a step change)', async () => {
    const { saver, calls } = setUp({ draftId: 3, draft: { name: 'x' } });
    saver.change({ name: 'y' });
    await saver.flush();
    expect(calls).toEqual(['update 3 y']);
  });

  it('sends one request at a time and saves what changed meanwhile afterwards', async () => {
    const setup = setUp({ draftId: 3, draft: { name: '' } });
    setup.hold();
    setup.saver.change({ name: 'a' });
    await vi.advanceTimersByTimeAsync(1000);
    setup.saver.change({ name: 'ab' });
    await vi.advanceTimersByTimeAsync(3000);
    expect(setup.calls).toEqual(['update 3 a']);
    setup.release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(setup.calls).toEqual(['update 3 a', 'update 3 ab']);
    expect(setup.saver.hasUnsavedChanges()).toBe(false);
  });

  it('reports a failed save, keeps the change unsaved, and retries on the next change', async () => {
    const setup = setUp({ draftId: 3, draft: { name: '' } });
    setup.fail(true);
    setup.saver.change({ name: 'a' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(setup.states.at(-1)).toBe('failed');
    expect(setup.saver.hasUnsavedChanges()).toBe(true);
    setup.fail(false);
    setup.saver.change({ name: 'ab' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(setup.calls).toEqual(['update 3 a', 'update 3 ab']);
    expect(setup.states.at(-1)).toBe('saved');
  });

  it('saves nothing more once stopped (the case is being submitted)', async () => {
    const { saver, calls } = setUp({ draftId: 3, draft: { name: '' } });
    saver.change({ name: 'a' });
    saver.stop();
    await vi.advanceTimersByTimeAsync(5000);
    await saver.flush();
    expect(calls).toEqual([]);
    saver.resume();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['update 3 a']);
  });
});
