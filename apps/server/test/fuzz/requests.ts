import fc from 'fast-check';
import type { TestApp } from '../helpers/test-app.ts';
import { applyMutations, fieldName, mutation, paramValue, trickyText, type Entry } from './arbitraries.ts';
import { formBodies, jsonBodies, strayBodies, type Body } from './bodies.ts';
import type { FuzzRoute } from './fuzz-routes.ts';
import { existingIds, type Example, type Fixture } from './route-examples.ts';

export type Actor = 'admin' | 'doctor' | 'assistant' | 'anonymous';

/** One fuzzed request: who sends it (a token is issued at send time), path, query and body. */
export interface FuzzRequest {
  actor: Actor;
  path: string;
  query: string;
  body: Body;
}

/** The path with each param drawn from the example's value, existing ids, and odd values. */
function pathArbitrary(t: TestApp, route: FuzzRoute, ids: readonly string[]): fc.Arbitrary<string> {
  const examplePath = route.example.url.split('?')[0]!;
  const valid = (t.app.findRoute({ method: route.method, url: examplePath })?.params ?? {}) as Record<string, string>;
  const segments = route.pattern.split(/(:\w+|\*)/).map((segment) => {
    if (segment === '*') {
      return fc.array(paramValue([valid['*']!]), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    }
    if (!segment.startsWith(':')) return fc.constant(segment);
    const example = valid[segment.slice(1)]!;
    return paramValue(/^-?\d+$/.test(example) ? [example, ...ids] : [example]);
  });
  return fc.tuple(...segments).map((parts) => parts.join(''));
}

/** The example's query mutated, random pairs (prototype keys included), or raw odd query text. */
function queryArbitrary(example: Example): fc.Arbitrary<string> {
  const entries = [...new URLSearchParams(example.url.split('?')[1] ?? '').entries()];
  const keys = entries.map(([key]) => key);
  const exampleValues = entries.map(([, value]) => value);
  const value = fc.oneof(fc.constantFrom(...exampleValues, '1', '100', '101', '0', '-1', 'CaseId'), trickyText);
  const encode = (pairs: readonly Entry<string>[]) =>
    new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString();
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc
        .array(mutation(keys, value), { minLength: 1, maxLength: 4 })
        .map((changes) => encode(applyMutations(entries, changes))),
    },
    { weight: 1, arbitrary: fc.array(fc.tuple(fieldName(keys), value), { maxLength: 5 }).map(encode) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__[isAdmin]=1',
        'constructor[prototype][isAdmin]=1',
        'page[]=1&page[]=2',
        'page=1&page=2',
        'sort=a&sort=b',
        '%zz=1',
        'search=%',
        '=&&=',
        'a'.repeat(5000),
      ),
    },
  );
}

function bodyArbitrary(example: Example): fc.Arbitrary<Body> {
  if (example.json) return jsonBodies(example.json);
  if (example.form) return formBodies(example.form, example.fileFields ?? []);
  return strayBodies;
}

const anyActor: fc.Arbitrary<Actor> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('admin' as const) },
  { weight: 3, arbitrary: fc.constant('doctor' as const) },
  { weight: 2, arbitrary: fc.constant('assistant' as const) },
  { weight: 1, arbitrary: fc.constant('anonymous' as const) },
);

/** `ids`: the ids path params are drawn from besides the example's (every fixture's, by default). */
export function requestArbitrary(
  t: TestApp,
  route: FuzzRoute,
  fixture: Fixture,
  options: { actor?: Actor; ids?: readonly string[] } = {},
): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    actor: options.actor ? fc.constant(options.actor) : anyActor,
    path: pathArbitrary(t, route, options.ids ?? existingIds(fixture)),
    query: queryArbitrary(route.example),
    body: route.method === 'HEAD' ? fc.constant({}) : bodyArbitrary(route.example),
  });
}
