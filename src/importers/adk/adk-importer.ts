import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { Importer, SourceFile } from '../import-types.js';
import { convertAdk } from './convert-adk.js';
import { readAdkCriteria } from './read-adk-criteria.js';
import { readAdkEvalSet } from './read-adk-eval-set.js';

/** Google ADK eval data: an `*.evalset.json` EvalSet or a `*.test.json` (EvalSet or legacy list), with `test_config.json` beside it. */
export const adkImporter: Importer = {
  description:
    'Google ADK eval sets: *.evalset.json, or *.test.json (EvalSet or the legacy list), with test_config.json beside it when present',
  companions: ['test_config.json'],
  convert(source, companions) {
    const config = companions.get('test_config.json');
    const set = readAdkEvalSet(parseJson(source), source.path, fallbackId(source.path));
    const criteria = readAdkCriteria(
      config ? parseJson(config) : undefined,
      config?.path ?? 'test_config.json',
    );
    return convertAdk(set, criteria, source.path);
  },
};

function parseJson(file: SourceFile): JsonValue {
  try {
    return JSON.parse(file.text) as JsonValue;
  } catch (error) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${file.path}: not JSON: ${(error as Error).message}`,
    );
  }
}

/** The suite and case name of a file that names none: its base name without `.test.json` / `.evalset.json`. */
function fallbackId(path: string): string {
  const base = path.split(/[\\/]/).at(-1) ?? path;
  return base.replace(/(\.test|\.evalset)?\.json$/i, '') || base;
}
