import type { Interaction, JsonValue } from './trace.js';

/**
 * The mock state a session's calls left, folded from the changes each mocked call recorded
 * (`MockedResult.state`) in the order the round trips were made: what the report shows as the
 * state after the case. Undefined when no call changed any state. Keys come from the model's
 * arguments, so the result is built with `Object.fromEntries` (own data properties, even for
 * a key such as `__proto__`).
 */
export function mockStateAfter(
  interactions: readonly Interaction[],
): { readonly [key: string]: JsonValue } | undefined {
  const state = new Map<string, JsonValue>();
  for (const interaction of interactions)
    for (const call of interaction.mocked ?? [])
      for (const [key, value] of Object.entries(call.state ?? {})) state.set(key, value);
  return state.size === 0 ? undefined : Object.fromEntries(state);
}
