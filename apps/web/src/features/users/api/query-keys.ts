export const userKeys = {
  all: ['users'] as const,
};
