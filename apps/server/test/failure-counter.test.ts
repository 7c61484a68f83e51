import { describe, expect, it } from 'vitest';
import { memoryFailureCounter } from '../src/lib/failure-counter.ts';

describe('the in-memory sign-in failure counter', () => {
  it('counts within a window, forgives, and starts again once the window is over', async () => {
    let time = 0;
    const counter = memoryFailureCounter(() => time);
    expect(await counter.hit('a', 1000)).toEqual({ count: 1, ttlSeconds: 1 });
    expect((await counter.hit('a', 1000)).count).toBe(2);
    await counter.forgive('a');
    expect((await counter.hit('a', 1000)).count).toBe(2);
    time = 1000;
    expect((await counter.hit('a', 1000)).count).toBe(1);
  });

  it('holds a bounded number of keys whatever names are tried (oldest dropped first)', async () => {
    const counter = memoryFailureCounter(() => 0, 10, 50);
    for (let i = 0; i < 500; i++) await counter.hit(`name${i}`, 60_000);
    // The newest are still counted; the first were dropped to make room.
    expect((await counter.hit('name499', 60_000)).count).toBe(2);
    expect((await counter.hit('name0', 60_000)).count).toBe(1);
  });
});
