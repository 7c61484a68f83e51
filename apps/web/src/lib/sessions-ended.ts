import { plural } from '@lingui/core/macro';

/** "1 session ended", "3 sessions ended": the server's sentence, in the language shown. */
export const sessionsEndedText = (count: number) =>
  plural(count, { one: '# session ended', other: '# sessions ended' });
