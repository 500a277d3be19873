import { compileUserPattern } from '../scoring/match/user-pattern.js';
import { CalltapeError } from '../errors.js';
import { checkRules } from '../scoring/validate-case.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import type { AnswerSpec, MockSpec } from './mock-types.js';
import type { StateEntries } from './mock-state-rules.js';
import { templateArguments } from './render-template.js';

/**
 * The load-time checks of one mock beyond its schema: fields that only mean something beside
 * another, and — when the file declares the tools — a mock for an unknown tool, a template or a
 * condition naming an argument the tool lacks; rules the scorer would refuse. Throws
 * CONFIG_INVALID naming `where` and the field.
 */
export function checkMock(
  spec: MockSpec,
  where: string,
  schema: JsonSchema | undefined,
  schemas: { [tool: string]: JsonSchema } | undefined,
): void {
  if (spec.otherwise && !spec.when)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: otherwise: only means something beside when`,
    );
  if (spec.after && !spec.sequence)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: after: only means something beside sequence`,
    );
  if (spec.timeout_ms !== undefined && !spec.module)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: timeout_ms: only means something beside module`,
    );
  if (schemas && !schema)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: tool: ${spec.tool} is not one of the tools this file declares (${Object.keys(schemas).sort().join(', ')})`,
    );
  const answers: [string, AnswerSpec][] = [
    ['', spec],
    ...(spec.when ?? []).map((answer, index): [string, AnswerSpec] => [`when[${index}].`, answer]),
    ...(spec.otherwise ? [['otherwise.', spec.otherwise] as [string, AnswerSpec]] : []),
    ...(spec.sequence ?? []).map((answer, index): [string, AnswerSpec] => [
      `sequence[${index}].`,
      answer,
    ]),
  ];
  const templates = (answer: AnswerSpec & { readonly state?: StateEntries }) =>
    [
      ['result', answer.result],
      ['error', answer.error],
      ...(['set', 'state'] as const).map((field): [string, JsonValue] => [
        field,
        // Keys of `set` and `state` are templates as well as their values.
        [...Object.keys(answer[field] ?? {}), ...Object.values(answer[field] ?? {})],
      ]),
    ] as const;
  for (const [prefix, answer] of answers) {
    for (const [field, template] of templates(answer)) {
      for (const argument of templateArguments(template)) {
        if (schema && !hasPath(schema, argument))
          throw new CalltapeError(
            'CONFIG_INVALID',
            `${where}: ${prefix}${field}: the template names {{args.${argument}}}, but ${spec.tool} has no argument ${argument} (it has: ${
              Object.keys(properties(schema) ?? {})
                .sort()
                .join(', ') || 'none'
            })`,
          );
      }
    }
  }
  (spec.when ?? []).forEach((condition, index) => {
    for (const argument of Object.keys(condition.arguments ?? {})) {
      if (schema && !hasPath(schema, argument))
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${where}: when[${index}].arguments.${argument}: ${spec.tool} has no argument ${argument}`,
        );
    }
    // The scorer's own checks: a rule that needs an expected value and has none, a regex that does not compile.
    checkRules(condition.rules, condition.arguments, `${where}: when[${index}].rules`);
    for (const [path, rule] of Object.entries(condition.rules ?? {})) {
      if (rule.matching_strategy !== 'regex') continue;
      const pattern = rule.pattern ?? condition.arguments?.[path.split('.')[0] ?? ''];
      try {
        compileUserPattern(String(pattern), rule.flags ?? '');
      } catch (error) {
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${where}: when[${index}].rules.${path}: the regex does not compile: ${(error as Error).message}`,
        );
      }
    }
  });
}

function properties(schema: JsonSchema | undefined): { [name: string]: JsonValue } | undefined {
  const value = schema?.['properties'];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/** Whether `a.b.0.c` exists in the schema as far as the schema says (an open object or array accepts any further path). */
function hasPath(schema: JsonSchema, path: string): boolean {
  let current: JsonSchema | undefined = schema;
  for (const segment of path.split('.')) {
    if (!current) return true;
    if (
      /^\d+$/.test(segment) &&
      Object.hasOwn(current, 'items') &&
      typeof current['items'] === 'object'
    ) {
      current = current['items'] as JsonSchema;
      continue;
    }
    const props = properties(current);
    if (!props) return true;
    const next = Object.hasOwn(props, segment) ? props[segment] : undefined;
    if (next === undefined) return false;
    current = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : undefined;
  }
  return true;
}
