import { existsSync } from 'node:fs';
import { compileUserPattern } from '../scoring/match/user-pattern.js';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { CalltapeError } from '../errors.js';
import { outsideProject } from '../config/project-file.js';
import { readDocument } from '../config/read-document.js';
import { configSchemaFile, schemaErrorText, schemaValidator } from '../config/schema-validator.js';
import { loadSchemaRegistry, schemaRegistry } from '../suites/load-schema-registry.js';
import { codeRefusal, defaultCodePolicy, type CodePolicy } from '../user-code/code-policy.js';
import { createUserCode, type UserCode } from '../user-code/user-code.js';
import { checkRules } from '../scoring/validate-case.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { chooseAnswer, moduleAnswer, renderAnswer } from './choose-answer.js';
import type { AnswerSpec, Mock, MockFile, MockSpec } from './mock-types.js';
import { templateArguments } from './render-template.js';

export const mocksSchemaPath = configSchemaFile('mocks.schema.json');

/** Loaded mock sets, by name (a file's name without its extension). */
export interface MockRegistry {
  readonly sets: ReadonlyMap<string, ReadonlyMap<string, Mock>>;
  /** The mocks of the named sets together; an unknown name, or two sets mocking one tool, is an error. */
  select(names: readonly string[]): ReadonlyMap<string, Mock>;
  /** Stops the thread module mocks run on. */
  close(): Promise<void>;
}

const schemaErrors = schemaValidator('mocks.schema.json', ['test-case.schema.json']);

/**
 * Loads mock files (JSON or YAML). Everything that can be wrong with a mock is found here, at
 * load time, never when a call arrives: the file against config/mocks.schema.json, and — when
 * the file gives the tools' schemas (`tools`) — a mock for a tool that does not exist, a
 * template or a condition naming an argument the tool does not have; a regex that does not
 * compile; a module that does not exist, or lies outside the project root unless `policy`
 * allows it. Messages name the file, the mock and the field. Under `--no-code` (`policy.run`
 * false) a module mock loads, but answers every call with the refusal and never loads its module.
 */
export function loadMocks(
  files: readonly string[],
  cwd: string,
  policy: CodePolicy = defaultCodePolicy,
): MockRegistry {
  const code: { current: UserCode | undefined; readonly policy: CodePolicy } = {
    current: undefined,
    policy,
  };
  const sets = new Map<string, Map<string, Mock>>();
  for (const file of files) {
    const path = resolve(cwd, file);
    const name = basename(path, extname(path));
    if (sets.has(name))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${path}: another mock file is already named "${name}"; mock sets are named after their files`,
      );
    sets.set(name, loadFile(path, name, code, cwd));
  }
  return {
    sets,
    select(names) {
      const selected = new Map<string, Mock>();
      for (const name of names) {
        const set = sets.get(name);
        if (!set)
          throw new CalltapeError(
            'CONFIG_INVALID',
            `no mock set named "${name}" (loaded: ${[...sets.keys()].join(', ') || 'none'})`,
          );
        for (const [tool, mock] of set) {
          const other = selected.get(tool);
          if (other)
            throw new CalltapeError(
              'CONFIG_INVALID',
              `mock sets "${other.set}" and "${name}" both mock ${tool}; select one of them`,
            );
          selected.set(tool, mock);
        }
      }
      return selected;
    },
    close: async () => code.current?.close(),
  };
}

function loadFile(
  path: string,
  set: string,
  code: { current: UserCode | undefined; readonly policy: CodePolicy },
  cwd: string,
): Map<string, Mock> {
  const value = readDocument(path, 'mock file', cwd);
  const errors = schemaErrors(value);
  if (errors.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      describeErrors(path, value, errors, !outsideProject(path, cwd)).join('\n'),
      `See ${mocksSchemaPath} for every field.`,
    );
  const file = value as MockFile;
  const schemas =
    file.tools === undefined
      ? undefined
      : typeof file.tools === 'string'
        ? loadSchemaRegistry(file.tools, dirname(path))
        : schemaRegistry(file.tools as JsonValue, `${path}: tools`);
  const mocks = new Map<string, Mock>();
  (file.mocks ?? []).forEach((spec, index) => {
    const where = `${path}: mocks[${index}] (${spec.tool})`;
    if (mocks.has(spec.tool))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: ${spec.tool} is mocked twice in this file`,
      );
    checkMock(spec, where, schemas?.[spec.tool], schemas);
    const module =
      spec.module === undefined
        ? undefined
        : isAbsolute(spec.module)
          ? spec.module
          : resolve(dirname(path), spec.module);
    if (module !== undefined && !existsSync(module))
      throw new CalltapeError('CONFIG_INVALID', `${where}: module: no such file ${module}`);
    // Outside the project is refused now; --no-code only when a call would load it, so the case that needed it says so.
    const outside =
      module === undefined
        ? undefined
        : codeRefusal(module, dirname(path), { ...code.policy, run: true });
    if (outside !== undefined)
      throw new CalltapeError('CONFIG_INVALID', `${where}: module: ${outside}`);
    mocks.set(spec.tool, {
      tool: spec.tool,
      set,
      async answer(call, context) {
        let answer: AnswerSpec;
        if (module === undefined) answer = chooseAnswer(spec, call, context);
        else {
          code.current ??= createUserCode(dirname(path), code.policy);
          try {
            answer = moduleAnswer(
              await code.current.call({
                module,
                exports: ['respond', 'default'],
                signature: 'respond(call, context)',
                args: [
                  {
                    id: call.id,
                    name: call.name,
                    arguments: safeParse(call.argumentsRaw),
                    arguments_raw: call.argumentsRaw,
                  },
                  context,
                ],
                timeoutMs: spec.timeout_ms ?? 5000,
              }),
            );
          } catch (error) {
            answer = { error: `calltape mock ${spec.tool}: ${(error as Error).message}` };
          }
        }
        return renderAnswer(spec, answer, call);
      },
    });
  });
  return mocks;
}

function checkMock(
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
  for (const [prefix, answer] of answers) {
    for (const field of ['result', 'error'] as const) {
      for (const argument of templateArguments(answer[field])) {
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

function safeParse(text: string): JsonValue | null {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return null;
  }
}

/** Messages naming the mock (by index and tool) and the field; alternatives (`oneOf`) report the deepest branch only. */
function describeErrors(
  path: string,
  value: unknown,
  errors: readonly ErrorObject[],
  quote: boolean,
): string[] {
  const depth = (error: ErrorObject): number =>
    error.instancePath.split('/').length + (error.keyword === 'additionalProperties' ? 1 : 0);
  const deepest = Math.max(...errors.map(depth));
  const mocks = (value as { mocks?: { tool?: unknown }[] } | null)?.mocks;
  // A failed oneOf also reports each branch's missing property: the oneOf message says it better.
  const oneOfAt = new Set(
    errors.filter((error) => error.keyword === 'oneOf').map((error) => error.instancePath),
  );
  return [
    ...new Set(
      errors
        .filter(
          (error) =>
            depth(error) === deepest &&
            !(error.keyword === 'required' && oneOfAt.has(error.instancePath)),
        )
        .map(
          (error) =>
            `${path}: ${schemaErrorText(error, 'mocks', (index) => mocks?.[index]?.tool, { oneOf: 'give exactly one of result, error, when, sequence or module' }, quote)}`,
        ),
    ),
  ];
}
