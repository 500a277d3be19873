import diff from 'microdiff';
import { formatPath } from '../cassette/describe-mismatch.js';
import { nearestName } from '../nearest-name.js';
import type { CanonicalMcpRequest } from './mcp-request.js';

/** Why a request matched no recording: the nearest one and its first difference. */
export interface McpMiss {
  /** One line for the JSON-RPC error message. */
  readonly message: string;
  /** The nearest recording's id, when the server has recordings of this method. */
  readonly nearest: string | undefined;
  /** The first differing parameter, e.g. `arguments.path`. */
  readonly field: string | undefined;
}

/**
 * Explains a miss. `recordedTimes` > 0 means the very request was recorded, but fewer times
 * than it is now asked (ordered repeats). Otherwise the nearest recording of the same method
 * is the one with the fewest differing leaves — a recording of the same tool always nearer
 * than one of another tool. `servers` are the servers the cassette holds recordings of: a name it
 * lacks is most likely a typo of one of them (`--name note` for `notes`).
 */
export function explainMcpMiss(
  server: string,
  requested: CanonicalMcpRequest,
  recordedTimes: number,
  candidates: readonly { readonly id: string; readonly canonical: string }[],
  servers: readonly string[] = [],
): McpMiss {
  const what = `${requested.method}${typeof requested.params['name'] === 'string' ? ` ${requested.params['name']}` : typeof requested.params['uri'] === 'string' ? ` ${requested.params['uri']}` : ''}`;
  if (recordedTimes > 0)
    return {
      message: `calltape replay: ${what} on ${server} was recorded ${recordedTimes} time(s); this is call ${recordedTimes + 1}`,
      nearest: undefined,
      field: undefined,
    };
  let best: { id: string; distance: number; path: string; line: string } | undefined;
  for (const candidate of candidates) {
    const recorded = JSON.parse(candidate.canonical) as CanonicalMcpRequest;
    const differences = diff(
      recorded.params as Record<string, unknown>,
      requested.params as Record<string, unknown>,
    );
    const first = differences.find((difference) => difference.path[0] === 'name') ?? differences[0];
    if (!first) continue;
    const distance =
      differences.length + (recorded.params['name'] === requested.params['name'] ? 0 : 1000);
    if (best && distance >= best.distance) continue;
    const before = first.type === 'CREATE' ? '(absent)' : show(first.oldValue);
    const after = first.type === 'REMOVE' ? '(absent)' : show(first.value);
    best = {
      id: candidate.id,
      distance,
      path: formatPath(first.path),
      line: `${before} → ${after}`,
    };
  }
  const meant = best || servers.includes(server) ? undefined : nearestName(server, servers);
  if (meant !== undefined)
    return {
      message: `calltape replay: no recording of ${what} on ${server}: the cassette records no server of that name (it records ${servers.join(', ')}); did you mean --name ${meant}?`,
      nearest: undefined,
      field: undefined,
    };
  if (!best)
    return {
      message: `calltape replay: no recording of ${what} on ${server}`,
      nearest: undefined,
      field: undefined,
    };
  return {
    message: `calltape replay: no recording of ${what} on ${server}; the nearest (${best.id}) differs first at ${best.path}: ${best.line}`,
    nearest: best.id,
    field: best.path,
  };
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
