/**
 * What the Rate, Review, Judges and Staging sections read from the API, as the browser sees it
 * (config/view-sections-api.schema.json documents every field; these are the fields shown).
 */

/** A person's rating of a run. */
export interface RatingEntry {
  readonly run: string;
  readonly rating: 'pass' | 'fail';
  readonly note?: string;
  readonly rater?: string;
  readonly at: string;
}

/** `rate`: where a rating session stands. */
export interface RateSession {
  readonly target: string;
  readonly set: string;
  readonly store: string;
  readonly runs: readonly { readonly run: string; readonly rating: RatingEntry | null }[];
  readonly run: string | null;
  readonly position: number;
  readonly done: boolean;
  readonly progress: { readonly rated: number; readonly total: number; readonly passShare: number };
  readonly stored: RatingEntry | null;
}

/** `rate/view`: one run as a person reads it to judge tool use. */
export interface RunView {
  readonly run: string;
  readonly request: string;
  readonly conversation: readonly { readonly role: string; readonly text: string }[];
  readonly tools: readonly {
    readonly name: string;
    readonly description: string;
    readonly parameters: unknown;
  }[];
  readonly turns: readonly {
    readonly status: string;
    readonly text: string;
    readonly calls: readonly {
      readonly tool: string;
      readonly arguments: string;
      readonly result: string | null;
      readonly failed: boolean;
      readonly mocked: boolean;
    }[];
  }[];
  readonly finalAnswer: string;
}

/** A case pending review. */
export interface PendingCase {
  readonly id: string;
  readonly prompt: string | null;
  readonly kind: 'positive' | 'negative';
  readonly tool: string | null;
  readonly expects: string;
  readonly provenance: {
    readonly source: 'generated' | 'promoted' | null;
    readonly guideline: string | null;
    readonly topic: string | null;
    readonly generator: string | null;
    readonly session: string | null;
    readonly failures: readonly string[];
  };
  readonly location: string;
}

/** `review`: each suite under review, or why it could not be read. */
export interface ReviewState {
  readonly suites: readonly (
    | { readonly file: string; readonly review: string; readonly cases: readonly PendingCase[] }
    | { readonly file: string; readonly error: string }
  )[];
}

/** One judge's agreement with a rated set (config/judges-report.schema.json). */
export interface JudgeAgreement {
  readonly name: string;
  readonly kind: string;
  readonly model: string | null;
  readonly n: number;
  readonly errors: number;
  readonly accuracy: number | null;
  readonly kappa: number | null;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  readonly flake_rate: number | null;
  readonly cost: number | null;
  readonly mean_latency_ms: number | null;
  readonly disagreements: readonly {
    readonly run: string;
    readonly rating: 'pass' | 'fail';
    readonly note: string | null;
    readonly judged: 'pass' | 'fail' | null;
    readonly reason: string | null;
  }[];
}

/** `judges`: the comparisons kept in the ratings database. */
export interface JudgesState {
  readonly ratings: string;
  readonly how: string;
  readonly comparisons: readonly {
    readonly at: string;
    readonly report: {
      readonly set: string;
      readonly judges_file: string;
      readonly runs: number;
      readonly rated_pass: number;
      readonly rated_fail: number;
      readonly best: string | null;
      readonly judges: readonly JudgeAgreement[];
    };
  }[];
}

/** A policy failure behind a verdict. */
export interface Failure {
  readonly policy: string;
  readonly message: string;
}

/** A scored call (the feed's `call.scored`). */
export interface CallVerdict {
  readonly at: number;
  readonly interactionId: string;
  readonly sessionId: string;
  readonly model: string;
  readonly tool: string;
  readonly callIndex: number;
  readonly arguments: string;
  readonly verdict: 'pass' | 'fail' | 'error';
  readonly score: number;
  readonly failures: readonly Failure[];
}

/** A scored session (the feed's `session.scored`). */
export interface SessionVerdict {
  readonly sessionId: string;
  readonly endedAt: number;
  readonly verdict: 'pass' | 'fail' | 'error';
  readonly turns: number;
  readonly calls: number;
  readonly failures: readonly Failure[];
  readonly trajectory: readonly {
    readonly turn: number;
    readonly tool: string;
    readonly arguments: string;
    readonly verdict: string;
    readonly failures: readonly string[];
    readonly hosted?: true;
    readonly server?: string;
    readonly unasked?: true;
    readonly outcome?: 'succeeded' | 'failed';
  }[];
}

/** An alert a policy's pass rate raised. */
export interface Alert {
  readonly policy: string;
  readonly passRate: number;
  readonly threshold: number;
  readonly evaluated: number;
  readonly at: number;
}

/** `staging`: the shadow dashboard's data, or how to get it. */
export type StagingState =
  | {
      readonly available: true;
      readonly shadow: { readonly file: string; readonly policies: readonly unknown[] } | null;
      readonly queue: {
        readonly depth: number;
        readonly accepted: number;
        readonly dropped: number;
      };
      readonly calls: readonly CallVerdict[];
      readonly failingSessions: readonly SessionVerdict[];
      readonly alerts: readonly Alert[];
      readonly feed: string;
      readonly metrics: string;
    }
  | { readonly available: false; readonly how: string };

/** What the feed sends, one JSON object per message. */
export type FeedEvent =
  | ({ readonly type: 'call.scored' } & CallVerdict)
  | ({ readonly type: 'session.scored' } & SessionVerdict)
  | ({ readonly type: 'alert' } & Alert)
  | { readonly type: 'policies.reloaded'; readonly message: string }
  | { readonly type: 'call.captured' };
