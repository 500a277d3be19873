import type { CapturedRound } from './captured-round.js';

/** The bytes a captured round holds (bodies and chunks), which is what queueing it costs. */
export function roundBytes(round: CapturedRound): number {
  let bytes =
    round.request.body.length +
    (round.agentView?.request?.length ?? 0) +
    (round.agentView?.response?.length ?? 0);
  for (const chunk of round.upstream?.chunks ?? []) bytes += chunk.length;
  return bytes;
}
