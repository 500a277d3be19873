import type { ResponseEnding } from '../providers/provider-adapter.js';
import type { MockedResult, ProviderId } from '../trace/trace.js';
import type { MatchKey } from './match-key.js';
import type { HeaderMap } from './credential-values.js';

/**
 * One round trip as the proxy saw it, unparsed: plain data only, so it can cross to the store's
 * worker thread (structured clone) where it is redacted, parsed and written.
 */
export interface CapturedRound {
  readonly adapterId: ProviderId;
  readonly request: {
    readonly id: string;
    readonly sessionId: string;
    readonly method: string;
    /** Path without the `/s/<id>` prefix, query included. */
    readonly path: string;
    /**
     * Request headers as received. The credentials in them and in `path` are what the exchange is
     * built without: taken from here where it is built, never carried beside them.
     */
    readonly headers: HeaderMap;
    readonly body: Uint8Array;
    /** `Date.now()` at arrival. */
    readonly startedAt: number;
  };
  /** Undefined when the request never reached the upstream (e.g. malformed JSON). */
  readonly upstream: CapturedUpstream | undefined;
  /**
   * The request's identity for replay, when the proxy computed it for a lookup (auto mode).
   * Otherwise the store worker computes it, numbering identical requests in completion order.
   */
  readonly match: MatchKey | undefined;
  /** The error calltape answered the agent with, if it answered one. */
  readonly proxyError: { readonly status: number; readonly message: string } | undefined;
  /** Calls in this round's answer that mock tools answered inside the proxy, with their results. */
  readonly mocked?: readonly MockedCall[];
  /** The agent never saw this round: every call in it was mocked (a hidden round of the tool loop). */
  readonly hidden?: boolean;
  /** Where the agent's view differs from the model's (mock tools): what the agent sent, and what it got. */
  readonly agentView?: { readonly request?: Uint8Array; readonly response?: Uint8Array };
}

/** A call answered by a mock: the result the model got instead of the agent's tool. */
export type MockedCall = MockedResult;

/** What came back from the upstream, as raw as it arrived. */
export interface CapturedUpstream {
  /** Undefined when no response headers arrived. */
  readonly status: number | undefined;
  readonly headers: HeaderMap | undefined;
  /** Body chunks exactly as received. */
  readonly chunks: readonly Uint8Array[];
  /** Arrival time of each chunk, in ms after the request started. */
  readonly chunkTimes: readonly number[];
  readonly firstByteMs: number | undefined;
  readonly totalMs: number;
  readonly ending: ResponseEnding;
  /** Why the exchange did not end normally, when it did not. */
  readonly errorMessage: string | undefined;
  /** Set when capture stopped early (`limits.maxResponseBytes`): `chunks` hold only the first part, and this says why. */
  readonly truncated?: string | undefined;
}
