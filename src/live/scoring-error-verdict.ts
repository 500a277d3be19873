import type { ProviderId } from '../trace/trace.js';
import { scoringErrorPolicy, type CallVerdict } from './verdict-types.js';

/** Where a call that could not be scored was made: what a verdict says besides the error. */
export type UnscoredCall = Omit<CallVerdict, 'verdict' | 'score' | 'evaluated' | 'failures'>;

/**
 * The `error` verdict of a call whose scoring threw: counted, stored and shown like any verdict,
 * so a call no policy could look at is never lost without a trace. It evaluated no policy (pass
 * rates and alerts leave it out) and its one failure, reason `scoring_error`, says what went wrong.
 */
export function scoringErrorVerdict(call: UnscoredCall, error: unknown): CallVerdict {
  return errorVerdict(call, `the call could not be scored: ${errorText(error)}`);
}

/**
 * The verdict of a round that failed as a whole with no call to pin it on: its trace did not
 * build (`read`: its calls are unknown), or scoring threw before any call and the round has none.
 * One `error` verdict for the round, with no tool and call index -1.
 */
export function roundErrorVerdict(
  round: {
    readonly at: number;
    readonly interactionId: string;
    readonly sessionId: string;
    readonly wire: ProviderId;
    readonly model?: string;
  },
  error: unknown,
  failed: 'read' | 'scored',
): CallVerdict {
  return errorVerdict(
    { model: 'unknown', ...round, tool: '', callIndex: -1, arguments: '', mocked: false },
    `the round could not be ${failed}: ${errorText(error)}`,
  );
}

function errorVerdict(call: UnscoredCall, message: string): CallVerdict {
  return {
    ...call,
    verdict: 'error',
    score: 0,
    evaluated: [],
    failures: [
      {
        policy: scoringErrorPolicy,
        reason: 'scoring_error',
        message,
      },
    ],
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
