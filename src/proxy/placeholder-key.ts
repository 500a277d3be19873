import type { IncomingHttpHeaders } from 'node:http';
import { CalltapeError } from '../errors.js';
import type { ProviderId } from '../trace/trace.js';

/**
 * The keys calltape hands an agent that has none, so its SDK starts: replay and auto mode answer
 * from the cassette without the provider. In auto mode a request the cassette cannot answer
 * never leaves this machine with one (record mode forwards what it is given: a keyless local
 * upstream, or a scripted one in tests, needs no real key).
 */
export const placeholderKeys = {
  openai: 'sk-calltape-replay',
  anthropic: 'sk-ant-calltape-replay',
  /** Direct mode's own requests when no key is set. */
  direct: 'sk-calltape-unset',
} as const;

const placeholders: ReadonlySet<string> = new Set(Object.values(placeholderKeys));

/** The environment variables that give an agent a placeholder key where it has none of its own. */
export function placeholderKeyEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return {
    ...(env['OPENAI_API_KEY'] ? {} : { OPENAI_API_KEY: placeholderKeys.openai }),
    ...(env['ANTHROPIC_API_KEY'] ? {} : { ANTHROPIC_API_KEY: placeholderKeys.anthropic }),
  };
}

/** Whether a request authenticates with one of calltape's placeholders (Bearer, x-api-key or api-key). */
export function sendsPlaceholderKey(headers: IncomingHttpHeaders): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(single(headers['authorization']) ?? '')?.[1];
  return [bearer, single(headers['x-api-key']), single(headers['api-key'])].some(
    (value) => value !== undefined && placeholders.has(value),
  );
}

/**
 * The error for a request that must go to the provider but carries only a placeholder: the agent
 * ran without a key, so the provider would refuse it anyway. Says which variable to set.
 */
export function noApiKeyError(provider: ProviderId): CalltapeError {
  const variable = apiKeyVariable(provider);
  return new CalltapeError(
    'NO_API_KEY',
    `calltape: no API key to record this request: set ${variable}`,
    `The cassette has no recording of this request, so it must go to the provider, which needs a key. Set ${variable} in the environment calltape runs in (in CI, from a repository secret).`,
  );
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The environment variable an agent's SDK reads its key from, for a wire. */
export function apiKeyVariable(
  provider: ProviderId,
): 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY' | 'GEMINI_API_KEY' {
  if (provider === 'gemini') return 'GEMINI_API_KEY';
  return provider === 'anthropic-messages' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}
