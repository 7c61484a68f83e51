export const resetTokenKeys = {
  all: ['reset-token'] as const,
  verification: (token: string) => [...resetTokenKeys.all, token] as const,
};
