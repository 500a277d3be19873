import type { ResponseEnding } from '../providers/provider-adapter.js';
import type { Interaction, JsonValue } from '../trace/trace.js';
import type { MatchKey } from './match-key.js';

/** Header name → value(s), secrets already removed. */
export type StoredHeaders = Readonly<Record<string, string | readonly string[]>>;

/**
 * One round trip as it is stored: the parsed interaction plus the raw bytes (after redaction),
 * so a later replay can re-emit the response byte for byte with its timing.
 */
export interface RecordedExchange {
  readonly interaction: Interaction;
  /** Where the agent's view differs from the model's (mock tools), redacted like the rest. */
  readonly agentView?: { readonly request?: Uint8Array; readonly response?: Uint8Array };
  /** The request's identity for replay, when it was computed. */
  readonly match: MatchKey | undefined;
  readonly request: {
    readonly headers: StoredHeaders;
    readonly body: Uint8Array;
  };
  /** Undefined when no upstream response arrived (proxy errors). */
  readonly response:
    | {
        readonly headers: StoredHeaders;
        /** The body bytes as received (still compressed when `content-encoding` says so). */
        readonly body: Uint8Array;
        /** Where each received chunk ended in `body` (byte offset) and when it arrived (ms after the request started). */
        readonly chunks: readonly ChunkTiming[];
        /** How the body ended; parsing the stored bytes again needs it to tell truncation apart. */
        readonly ending: ResponseEnding;
      }
    | undefined;
}

export interface ChunkTiming {
  readonly end: number;
  readonly atMs: number;
}

/** One recorded round trip of a session, with what replaying it needs beside the trace. */
export interface SessionRound {
  /** The round trip as the trace model, parsed again from its stored bytes. */
  readonly interaction: Interaction;
  /** The request body the agent itself sent (its view, when mock tools changed what went upstream). */
  readonly agentRequest: JsonValue;
  /** What the model answered, decompressed; undefined when no answer was stored. */
  readonly response:
    | {
        readonly httpStatus: number;
        readonly contentType: string | undefined;
        readonly body: Uint8Array;
      }
    | undefined;
}
