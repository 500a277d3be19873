import type { ActivitySnapshot } from './recent-activity.js';

/** The staging section's API path (the shadow dashboard's data). */
export const stagingApi = '/calltape/api/v1/staging';
/** The live feed (WebSocket) the staging section follows. */
export const feedPath = '/calltape/feed';

/** What the proxy's shadow scoring is doing, as the staging section opens with it. */
export interface StagingLive extends ActivitySnapshot {
  /** Served by a proxy: the section shows live data. */
  readonly available: true;
  /** The policies in force, or null when shadow scoring is off (no policies file). */
  readonly shadow: {
    readonly file: string;
    readonly policies: readonly {
      readonly id: string;
      readonly kind: string;
      readonly threshold: number | null;
    }[];
  } | null;
  /** Round trips waiting for the shadow scorer, taken, and dropped because the queue was full. */
  readonly queue: { readonly depth: number; readonly accepted: number; readonly dropped: number };
  /** The WebSocket path of the live feed (verdicts, sessions, alerts as they happen). */
  readonly feed: string;
  /** The Prometheus metrics path. */
  readonly metrics: string;
}

/** Served by `calltape view` with no proxy behind it: there is nothing live, and the section says how to get it. */
export interface StagingElsewhere {
  readonly available: false;
  /** How to see staging: what to start and where to open it. */
  readonly how: string;
}

/** The answer of `GET /calltape/api/v1/staging`. */
export type StagingState = StagingLive | StagingElsewhere;

/** The proxy's answer: its shadow state, and where its feed and metrics are. */
export function stagingLive(
  state: Omit<StagingLive, 'available' | 'feed' | 'metrics'>,
): StagingLive {
  return { available: true, ...state, feed: feedPath, metrics: '/metrics' };
}

/** `calltape view`'s answer: staging lives in the proxy. */
export const stagingElsewhere: StagingElsewhere = {
  available: false,
  how: "Staging is the proxy's shadow scoring: start calltape proxy with a policies file (--policies policies.yaml, or shadow.policies in proxy.config.json) and open its /calltape/app/#/staging address (with ?token= before the # when it has an admin token); there this section shows its verdicts, failing sessions, alerts and the live feed.",
};
