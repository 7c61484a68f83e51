import { allLocales, faker, type LocaleDefinition } from '@faker-js/faker';

/**
 * Patient names for the list benchmark's seed, as a lab's patients would have them: a few
 * thousand first names and surnames (faker's lists for English, German, Spanish, French,
 * Italian and Polish), shuffled once with a fixed seed, each drawn with a weight falling as
 * 1 / (rank + offset). The offsets make the most common surname about 0.9% of all patients
 * (Smith is 0.8% in the US census) and the most common first name about 2.5%, with a long
 * tail of names a few dozen patients share. The earlier seed gave every case its own
 * 'Patient<n>' and one of 977 'Family<n>' surnames: a trigram index over those has nothing
 * to tell names apart by ("pat", "ati", ... are in every row), unlike real names.
 */
const locales = ['en', 'de', 'es', 'fr', 'it', 'pl'] as const;

type NameList = LocaleDefinition['person'] extends infer P ? (P extends { first_name?: infer F } ? F : never) : never;

/** A locale's names, whether kept as one list or by sex. */
function namesOf(list: NameList | undefined): string[] {
  if (!list) return [];
  return Array.isArray(list) ? list : Object.values(list).flat();
}

function distinctShuffled(pick: (person: NonNullable<LocaleDefinition['person']>) => NameList | undefined) {
  const names = new Set<string>();
  for (const locale of locales) for (const name of namesOf(pick(allLocales[locale].person ?? {}))) names.add(name);
  faker.seed(11);
  return faker.helpers.shuffle([...names].sort());
}

export function patientNames() {
  return {
    firstNames: { names: distinctShuffled((person) => person.first_name), offset: 5 },
    lastNames: { names: distinctShuffled((person) => person.last_name), offset: 20 },
  };
}
