/**
 * The answers of calltape view's JSON API (`/calltape/api/v1/…`), shared by the server and the
 * app. Each is documented by a `$defs` entry of config/view-api.schema.json and in
 * docs/reference/view-api.md; a change here is a change of that contract (add fields, never
 * rename them; a breaking change is a new version).
 */

/** The API's version: the `v1` in its paths and the `version` of every answer. */
export const viewApiVersion = 1;

/** Where the API reads runs from, and whether anything is there yet. */
export interface RunsDatabaseFacts {
  /** The runs database's path, relative to the folder `calltape view` was started in when inside it. */
  readonly path: string;
  /** False until a `calltape test` or `score` run has stored something there. */
  readonly present: boolean;
}

/** A run configuration of a stored run, as the runs list shows it. */
export interface RunConfigurationListing {
  readonly name: string;
  /** The model it ran with; null when the suite named none. */
  readonly model: string | null;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  /** Cases whose expected tool was not offered: in no pass rate. */
  readonly unreliable: number;
  /** Passed share of the counted cases, 0..1. */
  readonly pass_rate: number;
  readonly mean_score: number;
}

/** One stored run, as the runs list shows it. */
export interface RunListing {
  readonly id: number;
  readonly suite: string;
  readonly mode: string;
  /** How cases were driven: direct, agent or cassette. */
  readonly drive: string;
  /** ISO 8601. */
  readonly started_at: string;
  readonly duration_ms: number;
  /** Every gate held and no case errored. */
  readonly passed: boolean;
  /** The exit code `calltape test` ended with. */
  readonly exit_code: number;
  /** Null when unknown (not in git, or stored before commits were kept). */
  readonly git_commit: string | null;
  readonly git_branch: string | null;
  readonly configs: readonly RunConfigurationListing[];
}

/** `GET /calltape/api/v1/runs`: stored runs, newest first, and the values the filters offer. */
export interface RunsAnswer {
  readonly version: typeof viewApiVersion;
  readonly runs_db: RunsDatabaseFacts;
  readonly runs: readonly RunListing[];
  /** Runs matching the filters, of which `runs` holds the newest `limit`. */
  readonly matched: number;
  /** Every suite, run configuration and git branch stored, for the filters. */
  readonly filters: {
    readonly suites: readonly string[];
    readonly configs: readonly string[];
    readonly branches: readonly string[];
  };
}

/** What the API answers on a bad request or a missing run (with a 4xx status). */
export interface ApiError {
  readonly error: { readonly message: string; readonly type: string };
}
