import type { MockedCall } from '../cassette/captured-round.js';
import type { MissCause } from '../cassette/describe-mismatch.js';
import type { ProxyMode } from '../config/config.js';
import type { Interaction } from '../trace/trace.js';

/** In-process subscriber to what the proxy answers: parsed off the store's worker, so only runners that need it pay. */
export interface ProxyObserver {
  interaction(interaction: Interaction): void;
  /** A replay miss, with the session of the request that missed and, when the cassette could tell, its cause. The observer reports it: the proxy does not log it as well. */
  miss(sessionId: string | undefined, message: string, cause?: MissCause): void;
}

/** What the store keeps of a tool-loop round beside the exchange. */
export interface LoopRecord {
  readonly round: number;
  readonly body: Buffer;
  readonly startedAt: number;
  readonly mocked: readonly MockedCall[];
  readonly hidden: boolean;
  /** What the agent sent (round 0, when hidden history was spliced in) and got (when calls were hidden from it). */
  readonly agentRequest?: Buffer | undefined;
  readonly agentResponse?: string | undefined;
}

export interface Where {
  readonly sessionId: string | undefined;
  /** Agent path without the prefixes, query included. */
  readonly path: string;
  /** Cassette file and mode for this request. */
  readonly cassette: string;
  readonly mode: ProxyMode;
  /** When the path looks like a base URL off by a `/v1`: what to set instead (the replay miss message). */
  readonly nearMiss?: string | undefined;
}

/** The model a request body asks for (`model` at the top level on every wire), for metric labels. */
export function requestedModel(body: unknown): string | undefined {
  const model =
    body !== null && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}
