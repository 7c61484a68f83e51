import fc from 'fast-check';

/** Keys that reach an object's prototype when a parser or a merge is careless. */
export const prototypeKeys = ['__proto__', 'constructor', 'prototype'] as const;

/** Text that has broken parsers, coercions and queries before. */
const trickyTexts = [
  '',
  ' ',
  ...prototypeKeys,
  'constructor.prototype',
  'toString',
  'hasOwnProperty',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x1f',
  ' 7 ',
  '2147483648',
  '-2147483649',
  '9'.repeat(400),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  "' OR 1=1 --",
  "Robert'); DROP TABLE users;--",
  '../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\uD800',
  '😀👩‍👩‍👧',
  'Ünïcödé Ωμέγα 中文 العربية',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%n%x',
  'a'.repeat(10_000),
];

export const trickyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...trickyTexts),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
);

const numbers: fc.Arbitrary<number | bigint> = fc.oneof(
  fc.integer(),
  fc.integer({ min: -10, max: 1000 }),
  fc.double(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
);

/** encodeURIComponent throws on a lone surrogate; as UTF-8, a client sends U+FFFD instead. */
const encodeSegment = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

/** A path segment: an existing record's id, a number of any size or kind, or odd text; URL-encoded. */
export function paramValue(existing: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...existing).map(encodeSegment) },
    { weight: 2, arbitrary: numbers.map((value) => encodeSegment(String(value))) },
    { weight: 2, arbitrary: trickyText.map(encodeSegment) },
    // Sent as they are: broken escapes, encoded separators and dots.
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%2e%2e',
        '..',
        '.',
        '%2F',
        '%2F..%2F..',
        '%00',
        '%C0%AE',
        '%ED%A0%80',
        '%FF',
      ),
    },
  );
}

/** Values for a JSON field: any JSON, wrong types, odd text. */
export const jsonFieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  trickyText,
  numbers.map(Number),
  fc.constantFrom(null, true, false, [], {}, 0, -1, 1e308),
);

/** Values for a multipart text field: odd text, numbers, or JSON (the clinic list is JSON in a field). */
export const formFieldValue: fc.Arbitrary<string> = fc.oneof(
  trickyText,
  numbers.map(String),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
);

/** A field name: one of the route's, a prototype key, or any text. */
export const fieldName = (known: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...known, ...prototypeKeys, 'constructor[prototype]', '__proto__.isAdmin'),
    fc.string({ maxLength: 40 }),
  );

export type Entry<V> = readonly [string, V];

/** One change to a list of key/value entries; applied in order, indexes taken modulo the length. */
export type Mutation<V> =
  | { kind: 'remove'; index: number }
  | { kind: 'replace'; index: number; value: V }
  | { kind: 'add'; key: string; value: V }
  | { kind: 'duplicate'; index: number; value: V };

export function mutation<V>(keys: readonly string[], value: fc.Arbitrary<V>): fc.Arbitrary<Mutation<V>> {
  return fc.oneof(
    fc.record({ kind: fc.constant('remove' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('replace' as const), index: fc.nat(), value }),
    fc.record({ kind: fc.constant('add' as const), key: fieldName(keys), value }),
    fc.record({ kind: fc.constant('duplicate' as const), index: fc.nat(), value }),
  );
}

export function applyMutations<V>(entries: readonly Entry<V>[], mutations: readonly Mutation<V>[]): Entry<V>[] {
  const result = [...entries];
  for (const change of mutations) {
    if (change.kind === 'add') {
      result.push([change.key, change.value]);
      continue;
    }
    if (result.length === 0) continue;
    const index = change.index % result.length;
    const key = result[index]![0];
    if (change.kind === 'remove') result.splice(index, 1);
    else if (change.kind === 'replace') result[index] = [key, change.value];
    else result.push([key, change.value]);
  }
  return result;
}

/** JSON text from entries, so `__proto__` and repeated keys reach the server as written. */
export const jsonObjectText = (entries: readonly Entry<unknown>[]) =>
  `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
