import { describe, expect, it } from 'vitest';
import './zod-jitless.ts';
import { config, z } from 'zod';

describe('zod-jitless', () => {
  it('is the configuration zod reads, though it does not import zod', () => {
    expect(config().jitless).toBe(true);
    // And schemas still parse (without compiling a parser).
    expect(z.object({ caseId: z.number() }).parse({ caseId: 7 })).toEqual({ caseId: 7 });
  });
});
