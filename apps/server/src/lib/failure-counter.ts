import type { Redis } from 'ioredis';

/**
 * Counts failed attempts per key in a fixed window (sign-in failures per account and per
 * account and address). An attempt is counted before it is checked, so parallel guesses
 * cannot all slip under the limit, and taken back when it turns out right.
 */
export interface FailureCounter {
  /** Counts one attempt; answers how many are counted in this window, this one included, and the seconds left. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlSeconds: number }>;
  /** Takes back an attempt that was not a failure. */
  forgive(key: string): Promise<void>;
}

/**
 * In one process's memory (no REDIS_URL). Expired windows are swept when many keys are held
 * (at most once a second); past `maxKeys` the oldest window is dropped, so memory stays
 * bounded whatever names an attacker tries.
 */
export function memoryFailureCounter(
  now: () => number = Date.now,
  sweepAbove = 10_000,
  maxKeys = 100_000,
): FailureCounter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweptAt = 0;
  const makeRoom = (time: number) => {
    if (windows.size >= sweepAbove && time - sweptAt >= 1000) {
      sweptAt = time;
      for (const [key, window] of windows) if (window.resetAt <= time) windows.delete(key);
    }
    if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
  };
  return {
    async hit(key, windowMs) {
      const time = now();
      let window = windows.get(key);
      if (!window || window.resetAt <= time) {
        windows.delete(key);
        makeRoom(time);
        window = { count: 0, resetAt: time + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, ttlSeconds: Math.max(1, Math.ceil((window.resetAt - time) / 1000)) };
    },
    async forgive(key) {
      const window = windows.get(key);
      if (!window) return;
      window.count -= 1;
      if (window.count <= 0) windows.delete(key);
    },
  };
}

const hitScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

const forgiveScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('DECR', KEYS[1]) <= 0 then redis.call('DEL', KEYS[1]) end
end
return 0`;

/** In Redis, shared by every process: one Lua script per call, so a hit and its expiry are one step. */
export function redisFailureCounter(redis: Redis, prefix: string): FailureCounter {
  return {
    async hit(key, windowMs) {
      const [count, ttlMs] = (await redis.eval(hitScript, 1, prefix + key, windowMs)) as [number, number];
      return { count, ttlSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    },
    async forgive(key) {
      await redis.eval(forgiveScript, 1, prefix + key);
    },
  };
}
