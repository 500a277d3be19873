import { existsSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import { outsideProject } from '../config/project-file.js';
import { readDocument } from '../config/read-document.js';
import { configSchemaFile, schemaValidator } from '../config/schema-validator.js';
import { loadSchemaRegistry, schemaRegistry } from '../suites/load-schema-registry.js';
import { codeRefusal, defaultCodePolicy, type CodePolicy } from '../user-code/code-policy.js';
import { createUserCode, type UserCode } from '../user-code/user-code.js';
import type { JsonValue } from '../trace/trace.js';
import { checkMock } from './check-mock.js';
import { describeMockErrors } from './describe-mock-errors.js';
import { chooseAnswer, moduleAnswer, renderAnswer } from './choose-answer.js';
import type { AnswerSpec, Mock, MockAnswer, MockFile } from './mock-types.js';
import { MockSessionStates } from './mock-session-states.js';

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
      describeMockErrors(path, value, errors, !outsideProject(path, cwd)).join('\n'),
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
  const states = new MockSessionStates(new Map(Object.entries(file.state ?? {})));
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
        const state = states.read(context.session);
        let answer: AnswerSpec;
        if (module === undefined) answer = chooseAnswer(spec, call, context, state);
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
                  { ...context, state: Object.fromEntries(state) },
                ],
                timeoutMs: spec.timeout_ms ?? 5000,
              }),
            );
          } catch (error) {
            answer = { error: `calltape mock ${spec.tool}: ${(error as Error).message}` };
          }
        }
        return settle(spec.tool, renderAnswer(spec, answer, call, state), states, context.session);
      },
    });
  });
  return mocks;
}

/** Applies an answer's state changes to its session; an answer whose changes are refused becomes an error result, changing nothing. */
function settle(
  tool: string,
  answer: MockAnswer,
  states: MockSessionStates,
  session: string,
): MockAnswer {
  if (answer.state === undefined) return answer;
  const refused = states.apply(session, new Map(Object.entries(answer.state)));
  if (refused === undefined) return answer;
  return {
    content: JSON.stringify({ error: `calltape mock ${tool}: ${refused}` }),
    isError: true,
    delayMs: answer.delayMs,
  };
}

function safeParse(text: string): JsonValue | null {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return null;
  }
}
