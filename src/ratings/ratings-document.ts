import { parse, stringify } from 'yaml';
import { schemaErrorText, schemaValidator } from '../config/schema-validator.js';
import { CalltapeError } from '../errors.js';
import type { Rating } from './rating.js';

const schemaErrors = schemaValidator('ratings.schema.json');

/** Ratings by set name, as a reviewable file holds them. */
export type RatingSets = ReadonlyMap<string, readonly Rating[]>;

/**
 * The ratings file a golden set is committed as: YAML, one entry per run with every field, sets
 * and runs sorted, so a diff shows exactly which ratings changed. Lossless: reading it back
 * gives the same ratings.
 */
export function ratingsToYaml(sets: RatingSets): string {
  const document: { version: number; sets: Record<string, Rating[]> } = { version: 1, sets: {} };
  for (const name of [...sets.keys()].sort()) {
    document.sets[name] = [...(sets.get(name) ?? [])]
      .sort((left, right) => (left.run < right.run ? -1 : left.run > right.run ? 1 : 0))
      .map((rating) => ({ ...rating }));
  }
  return `# calltape ratings (config/ratings.schema.json); import with: calltape ratings import <file>\n${stringify(document, { lineWidth: 0 })}`;
}

/** Reads a ratings file (YAML or JSON text); errors name the file and the entry. */
export function ratingsFromText(text: string, file: string): RatingSets {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file}: cannot read the ratings file: ${(error as Error).message}`,
    );
  }
  const errors = schemaErrors(value);
  if (errors.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      [
        ...new Set(
          errors.map((error) => `${file}: ${schemaErrorText(error, '', () => undefined)}`),
        ),
      ].join('\n'),
    );
  const document = value as { sets: { [set: string]: Rating[] } };
  const sets = new Map<string, Rating[]>();
  for (const [name, ratings] of Object.entries(document.sets)) {
    const seen = new Set<string>();
    for (const rating of ratings) {
      if (seen.has(rating.run))
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${file}: sets.${name}: the run "${rating.run}" is rated twice`,
        );
      seen.add(rating.run);
    }
    sets.set(name, ratings);
  }
  return sets;
}
