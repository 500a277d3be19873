import { nearestName } from '../nearest-name.js';
import { nameMatches } from './rule-table.js';
import type { CallExpectation } from './trajectory/types.js';

/**
 * One line per `never` entry that names no tool the run offered the model and no call it made: a
 * forbidden call the agent could not make passes whatever it does, so the check says nothing — most
 * often a typo (`send_emial`) or a tool renamed in the agent. Tells the nearest offered name.
 * Built-in provider tools (web search, code interpreter) are not function tools and count as not
 * offered. Pure.
 */
export function neverNotOffered(
  never: readonly CallExpectation[] | undefined,
  offered: readonly string[],
  called: readonly string[],
): string[] {
  const lines: string[] = [];
  const tools = (never ?? []).flatMap((entry) =>
    typeof entry === 'string'
      ? [entry]
      : typeof entry.tool === 'string'
        ? [entry.tool]
        : entry.tool,
  );
  for (const tool of tools) {
    const seen = (name: string): boolean => nameMatches(tool, name);
    if (offered.some(seen) || called.some(seen)) continue;
    const meant = nearestName(tool, offered);
    lines.push(
      `never: ${tool} names a tool this run never offered the model, so the check cannot fail (offered: ${offered.join(', ') || 'none'})${meant === undefined ? '' : `; did you mean ${meant}?`}`,
    );
  }
  return [...new Set(lines)];
}
