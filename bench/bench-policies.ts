import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The policies the benches score traffic against: a schema check, argument rules for the bench
 * upstream's `get_weather` calls, a forbidden tool and a step budget, sessions closing after 1 s
 * idle. One text, so the proxy bench, the shadow bench and the shadow worker bench score alike.
 */
const benchPoliciesYaml = `sessions: { idle_timeout: 1s }
policies:
  - { id: schema, kind: schema }
  - { id: weather-args, kind: arguments, tool: get_weather, arguments: { city: { pattern: '[A-Z][a-z]+' }, unit: { any_of: [celsius, fahrenheit] } } }
  - { id: never-delete, kind: never, tools: [delete_account] }
  - { id: budget, kind: steps, max_steps: 20, max_repeats: 3 }
`;

/** Writes the bench policies to `folder/policies.yaml` and returns that path. */
export function writeBenchPolicies(folder: string): string {
  const file = join(folder, 'policies.yaml');
  writeFileSync(file, benchPoliciesYaml);
  return file;
}
