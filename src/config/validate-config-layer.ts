import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { CalltapeError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { compileUserPattern } from '../scoring/match/user-pattern.js';
import type { ConfigLayer } from './config.js';
import { validate as generatedValidator } from './proxy-config-validator.generated.js';
import { givenValue } from './schema-validator.js';

export const configSchemaPath = join(packageRoot, 'config', 'proxy.config.schema.json');

/**
 * The schema compiled ahead of time (scripts/config-validator-source.ts): compiling it at start
 * kept ~7 MB resident in every proxy, and loaded ajv's compiler (issue 21).
 */
const validator = generatedValidator as unknown as ValidateFunction;

function validate(value: unknown): readonly ErrorObject[] {
  return validator(value) ? [] : (validator.errors ?? []);
}

/**
 * Validates one configuration layer against config/proxy.config.schema.json. `source` names the
 * layer in messages ("proxy.config.json", "environment"); `fieldName` maps a JSON pointer to the
 * name the user typed (an environment variable or flag) where that differs. `quote`: false for a
 * layer read from a file outside the project, whose values are never quoted.
 */
export function validateConfigLayer(
  layer: unknown,
  source: string,
  fieldName: (pointer: string) => string = (pointer) => pointer || '(root)',
  quote = true,
): ConfigLayer {
  const errors = validate(layer);
  const lines =
    errors.length === 0
      ? patternErrors(layer as ConfigLayer).map(
          ([pointer, reason]) => `${fieldName(pointer)}: ${reason}`,
        )
      : errors.map((error) => describe(error, fieldName, quote));
  if (lines.length === 0) return layer as ConfigLayer;
  throw new CalltapeError(
    'CONFIG_INVALID',
    [...new Set(lines.map((line) => `${source}: ${line}`))].join('\n'),
    `See ${configSchemaPath} for every field.`,
  );
}

/**
 * Patterns the schema accepts as JavaScript syntax but the linear-time engine they run on
 * (RE2: no lookaround, no backreferences) cannot compile, as [JSON pointer, reason] pairs.
 */
function patternErrors(layer: ConfigLayer): [string, string][] {
  const patterns: [string, string, string | undefined][] = [];
  layer.redact?.bodyPatterns?.forEach((pattern, index) =>
    patterns.push([`/redact/bodyPatterns/${index}/pattern`, pattern.pattern, pattern.flags]),
  );
  layer.match?.normalisers?.forEach((normaliser, index) => {
    if (typeof normaliser !== 'string')
      patterns.push([`/match/normalisers/${index}/pattern`, normaliser.pattern, normaliser.flags]);
  });
  return patterns.flatMap(([pointer, source, flags]): [string, string][] => {
    try {
      compileUserPattern(source, flags ?? '');
      return [];
    } catch (error) {
      return [
        [
          pointer,
          `the regex cannot run on calltape's linear-time engine: ${(error as Error).message}`,
        ],
      ];
    }
  });
}

function describe(
  error: ErrorObject,
  fieldName: (pointer: string) => string,
  quote: boolean,
): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return `${fieldName(`${error.instancePath}/${String(params['additionalProperty'])}`)}: unknown field`;
  }
  const expected =
    error.keyword === 'enum'
      ? `must be one of ${JSON.stringify(params['allowedValues'])}`
      : (error.message ?? 'is invalid');
  return `${fieldName(error.instancePath)}: ${expected}${givenValue(error.data, quote)}`;
}
