import { schemasFromTools } from '../scoring/schemas-from-tools.js';
import type { Interaction, JsonSchema, ToolCall } from '../trace/trace.js';
import { sharedSchema } from './constraint-case.js';

/**
 * The parameter schemas a request declared, by tool name. A `Map`: the names come from the agent
 * and the calls' names from the model, so a tool called `constructor` or `__proto__` is looked up
 * as data and never finds anything of `Object.prototype`.
 */
export type DeclaredSchemas = ReadonlyMap<string, JsonSchema>;

/**
 * The schemas of `interaction`'s declared tools (undefined when it declared none). The schema of
 * each tool `called` is swapped for the one object of its text (`sharedSchema`), so the caches
 * the policies use find it by object instead of serialising a new one every round.
 */
export function declaredSchemas(
  interaction: Interaction,
  called: readonly ToolCall[],
): DeclaredSchemas | undefined {
  const { tools } = interaction.request;
  if (tools.length === 0) return undefined;
  const schemas = new Map(Object.entries(schemasFromTools(tools)));
  for (const call of called) {
    const own = schemas.get(call.name);
    if (own) schemas.set(call.name, sharedSchema(own));
  }
  return schemas;
}
