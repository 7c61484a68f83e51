import { schemaResolver, type FormErrors } from '@mantine/form';
import { serverText } from './server-text.ts';

/** @mantine/form's schemaResolver for a contract schema, its messages in the language shown. */
export function localizedResolver(schema: Parameters<typeof schemaResolver>[0]) {
  const resolve = schemaResolver(schema, { sync: true });
  return (values: unknown): FormErrors =>
    Object.fromEntries(
      Object.entries(resolve(values as never)).map(([path, message]) => [
        path,
        typeof message === 'string' ? serverText(message) : message,
      ]),
    );
}
