import fc from 'fast-check';
import {
  applyMutations,
  fieldName,
  formFieldValue,
  jsonFieldValue,
  jsonObjectText,
  mutation,
  prototypeKeys,
  trickyText,
  type Entry,
} from './arbitraries.ts';

/** What is sent: a payload and its Content-Type (none when absent). */
export interface Body {
  payload?: string | Buffer;
  contentType?: string;
}

/** One multipart part; with `fileName` it is a file. */
export interface Part {
  name: string;
  value: string | Uint8Array;
  fileName?: string;
  type?: string;
}

const boundary = 'fuzz-boundary-7MA4YWxkTrZu0gW';
const multipartType = `multipart/form-data; boundary=${boundary}`;
// Quotes and line breaks in names are escaped as browsers do (HTML's multipart/form-data encoding).
const escapeName = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

function encodeMultipart(parts: readonly Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(part.name)}"`;
    if (part.fileName !== undefined) head += `; filename="${escapeName(part.fileName)}"`;
    head += '\r\n';
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const textParts = (entries: readonly Entry<string>[]): Part[] => entries.map(([name, value]) => ({ name, value }));
const urlEncoded = (entries: readonly Entry<unknown>[]) =>
  new URLSearchParams(
    entries.map(([key, value]): [string, string] => [
      key,
      typeof value === 'string' ? value : String(JSON.stringify(value)),
    ]),
  ).toString();

/** A Content-Type header a client could send: printable ASCII only, as HTTP requires. */
const anyContentType = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'application/xml',
    'application/octet-stream',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/vnd.api+json',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/mixed; boundary=x',
    'application/x-www-form-urlencoded',
    'image/png',
  ),
  fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
);

/** The same fields sent the wrong way: other encodings, other or no Content-Type, broken framing. */
function oddEncodings(entries: readonly Entry<unknown>[]): fc.Arbitrary<Body> {
  const json = jsonObjectText(entries);
  const multipart = encodeMultipart(
    entries.map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) })),
  );
  return fc.oneof(
    fc.constant({ payload: json, contentType: 'text/plain' }),
    fc.constant({ payload: json }),
    fc.constant({ payload: urlEncoded(entries), contentType: 'application/x-www-form-urlencoded' }),
    fc.constant({ payload: multipart, contentType: multipartType }),
    fc.constant({ payload: json, contentType: 'application/json; charset=utf-16' }),
    fc.constant({ payload: multipart, contentType: 'multipart/form-data' }),
    anyContentType.map((contentType) => ({ payload: json, contentType })),
    fc.nat().map((cut) => ({ payload: json.slice(0, cut % (json.length + 1)), contentType: 'application/json' })),
    fc
      .nat()
      .map((cut) => ({ payload: multipart.subarray(0, cut % (multipart.length + 1)), contentType: multipartType })),
    fc.constant({ contentType: 'application/json' }),
    fc.constant({ contentType: multipartType }),
  );
}

/** `__proto__` / `constructor.prototype` somewhere in a JSON body, as JSON text. */
function poisonedJson(entries: readonly Entry<unknown>[]): fc.Arbitrary<Body> {
  const poison = fc.constantFrom(
    '"__proto__":{"isAdmin":true,"roleId":-1}',
    '"constructor":{"prototype":{"isAdmin":true}}',
    '"__proto__":null',
    '"a":{"__proto__":{"polluted":1}}',
    '"a":[{"constructor":{"prototype":{"polluted":1}}}]',
  );
  return fc.tuple(poison, fc.boolean()).map(([text, first]) => {
    const body = jsonObjectText(entries).slice(1, -1);
    const members = [body, text].filter(Boolean);
    return { payload: `{${(first ? members.reverse() : members).join(',')}}`, contentType: 'application/json' };
  });
}

/** A JSON route: its valid body mutated, any JSON, poisoned JSON, or the fields sent oddly. */
export function jsonBodies(example: Record<string, unknown>): fc.Arbitrary<Body> {
  const entries = Object.entries(example);
  const keys = Object.keys(example);
  const mutated = fc
    .array(mutation(keys, jsonFieldValue), { minLength: 1, maxLength: 4 })
    .map((changes) => applyMutations(entries, changes));
  return fc.oneof(
    {
      weight: 5,
      arbitrary: mutated.map((result) => ({ payload: jsonObjectText(result), contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .jsonValue()
        .map((value) => ({ payload: JSON.stringify(value) ?? '', contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: poisonedJson(entries) },
    { weight: 2, arbitrary: mutated.chain(oddEncodings) },
  );
}

const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }),
  fc.constantFrom(
    Buffer.from('MZ\x90\x00\x03\x00\x00\x00this program cannot be run in DOS mode', 'latin1'),
    Buffer.from('<html><script>alert(1)</script></html>'),
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    Buffer.from([0xff, 0xd8, 0xff]),
    Buffer.alloc(0),
  ),
);

/** A file part: one of the form's file fields or any name, any bytes, any name and type. */
const filePart = (fileFields: readonly string[]): fc.Arbitrary<Part> =>
  fc.record({
    name: fieldName(fileFields),
    value: fileBytes,
    fileName: fc.oneof(
      fc.constantFrom(
        'scan.stl',
        'photo.png',
        'x.exe',
        'photo.png.exe',
        '../../evil.png',
        '',
        '.png',
        'a'.repeat(300) + '.jpg',
      ),
      trickyText,
    ),
    type: fc.oneof(
      fc.constantFrom('image/png', 'image/jpeg', 'text/html', 'application/x-msdownload', 'application/octet-stream'),
      fc.stringMatching(/^[\x21-\x7e]{0,40}$/),
    ),
  });

/** A multipart route: its valid form mutated, extra files, `__proto__` fields, or the fields sent oddly. */
export function formBodies(example: readonly Part[], fileFields: readonly string[]): fc.Arbitrary<Body> {
  const texts = example.filter((part) => part.fileName === undefined);
  const files = example.filter((part) => part.fileName !== undefined);
  const entries = texts.map((part): Entry<string> => [part.name, String(part.value)]);
  const keys = entries.map(([key]) => key);
  const mutated = fc
    .array(mutation(keys, formFieldValue), { minLength: 1, maxLength: 4 })
    .map((changes) => applyMutations(entries, changes));
  const asMultipart = (parts: Part[]): Body => ({ payload: encodeMultipart(parts), contentType: multipartType });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(mutated, fc.subarray(files), fc.array(filePart(fileFields), { maxLength: 2 }))
        .map(([fields, kept, extra]) => asMultipart([...textParts(fields), ...kept, ...extra])),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...prototypeKeys, 'constructor[prototype]'), formFieldValue, fc.boolean())
        .map(([name, value, asFile]) =>
          asMultipart([...example, asFile ? { name, value, fileName: 'a.png', type: 'image/png' } : { name, value }]),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(
          fc.oneof(
            fc.tuple(fieldName(keys), formFieldValue).map(([name, value]) => ({ name, value })),
            filePart(fileFields),
          ),
          {
            maxLength: 8,
          },
        )
        .map(asMultipart),
    },
    { weight: 2, arbitrary: mutated.chain(oddEncodings) },
  );
}

/** A route that takes no body still gets one now and then, of any kind. */
export const strayBodies: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc
      .jsonValue()
      .map((value) => ({ payload: JSON.stringify(value) ?? '', contentType: 'application/json' })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(trickyText, anyContentType).map(([payload, contentType]) => ({ payload, contentType })),
  },
  { weight: 1, arbitrary: poisonedJson([]) },
);
