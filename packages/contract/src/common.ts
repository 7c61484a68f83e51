import { z } from 'zod';

export const messageResponse = z.object({ message: z.string() });
export const successResponse = z.object({ success: z.boolean(), message: z.string() });
export const errorResponse = z.object({
  message: z.string(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
  // A refusal put together at run time: its code in `serverMessages` and the values it names.
  code: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** Path ids arrive as strings; -1 is a real role id, so negatives are allowed. */
export const idParam = z.coerce
  .number({ error: 'Id must be a number' })
  .int('Id must be a whole number')
  .min(-2147483648, 'Id is out of range')
  .max(2147483647, 'Id is out of range');

export const idParams = z.object({ id: idParam });
