import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { AnsweredCalls, HiddenHistory, MockCounters } from '../mocks/hidden-history.js';
import type { MockRegistry } from '../mocks/load-mocks.js';
import type { Mock, MockAnswer } from '../mocks/mock-types.js';
import type { CodePolicy } from '../user-code/code-policy.js';
import { mocksHeader } from './headers.js';

/** The loaded mock sets and what the tool loop remembers between requests. */
export interface MockState {
  readonly registry: MockRegistry;
  /** Sets in force when a request names none. */
  readonly defaultSets: readonly string[];
  readonly history: HiddenHistory;
  readonly counters: MockCounters;
  /** Override mode: each mocked call's answer, so a result the agent sends again gets the same one. */
  readonly answered: AnsweredCalls<MockAnswer & { readonly set: string }>;
}

/** The mocks a request runs with: the sets its `x-calltape-mocks` header names (`none` for none), else the default sets. */
export function selectMocks(
  state: MockState,
  headers: IncomingMessage['headers'],
): ReadonlyMap<string, Mock> | CalltapeError {
  const header = headers[mocksHeader];
  const named = (Array.isArray(header) ? header.join(',') : header)
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  try {
    return state.registry.select(
      named === undefined ? state.defaultSets : named.includes('none') ? [] : named,
    );
  } catch (error) {
    return new CalltapeError(
      'INVALID_REQUEST',
      `calltape: ${mocksHeader}: ${(error as Error).message}`,
    );
  }
}

/**
 * The mock sets of `config.mocks`, loaded and checked; undefined when no mock file is configured
 * and strictTools is off. The loader (and the scoring engine behind mock answers) is imported only
 * then: a proxy without mocks never loads it.
 */
export async function loadMockState(
  config: Config,
  code?: CodePolicy,
): Promise<MockState | undefined> {
  if (config.mocks.files.length === 0 && !config.mocks.strictTools) return undefined;
  const { loadMocks } = await import('../mocks/load-mocks.js');
  const registry = loadMocks(config.mocks.files, process.cwd(), code);
  const defaultSets = config.mocks.active ?? [...registry.sets.keys()];
  try {
    // The default selection is checked now: unknown names or two sets mocking one tool fail the start.
    registry.select(defaultSets);
  } catch (error) {
    void registry.close();
    throw new CalltapeError('CONFIG_INVALID', `mocks.active: ${(error as Error).message}`);
  }
  if (config.mocks.mode === 'override' && config.mocks.strictTools) {
    void registry.close();
    throw new CalltapeError(
      'CONFIG_INVALID',
      'mocks.strictTools: needs mocks.mode "intercept" (in override mode the agent runs every tool itself, so nothing can be refused before it runs)',
    );
  }
  return {
    registry,
    defaultSets,
    history: new HiddenHistory(),
    counters: new MockCounters(),
    answered: new AnsweredCalls(),
  };
}
