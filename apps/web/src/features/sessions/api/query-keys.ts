export const sessionKeys = {
  mine: ['sessions', 'mine'] as const,
};
