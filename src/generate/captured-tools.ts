import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { CalltapeError } from '../errors.js';
import type { JsonValue, ToolDefinition } from '../trace/trace.js';

/** The tools a captured request offered, and which request that was. */
export interface CapturedTools {
  readonly tools: readonly ToolDefinition[];
  /** `<cassette> session <id>`, for messages. */
  readonly where: string;
}

/**
 * The tools of a request recorded in a cassette, in whatever wire it was spoken (the adapters read
 * every provider's shape into `ToolDefinition`s): the session's first request that offered tools,
 * or, without a session, the latest such request in the cassette. A cassette or session without
 * one is refused (CONFIG_INVALID) naming it.
 */
export function capturedTools(cassette: string, session: string | undefined): CapturedTools {
  const interactions = readInteractions(
    cassette,
    session === undefined ? {} : { sessionId: session },
  );
  if (session !== undefined && interactions.length === 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${cassette}: no session "${session}" in this cassette`,
      'calltape cassettes show <cassette> shows every session.',
    );
  const offering = interactions.filter((interaction) => interaction.request.tools.length > 0);
  const chosen = session === undefined ? offering[offering.length - 1] : offering[0];
  if (!chosen)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${cassette}${session === undefined ? '' : ` session "${session}"`}: no recorded request offered tools`,
    );
  return { tools: chosen.request.tools, where: `${cassette} session ${chosen.sessionId}` };
}

/** Tool definitions as a suite's `tools` list holds them (the Chat Completions shape direct mode sends). */
export function chatTools(tools: readonly ToolDefinition[]): JsonValue[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.parameters,
    },
  }));
}
