/** The signed-in doctor's assistants (GET /doctor/assistants). */
export const assistantKeys = {
  own: ['assistants'] as const,
};
