/**
 * The answers of calltape view's JSON API (`/calltape/api/v1/…`), shared by the server and the
 * app. Each is documented by a `$defs` entry of config/view-api.schema.json and in
 * docs/reference/view-api.md; a change here is a change of that contract (add fields, never
 * rename them; a breaking change is a new version).
 */

import type { ConfigurationMatrix } from '../report/configuration-matrix.js';
import type { BehaviourDiff, CaseBehaviourChange, RunBaseline } from '../report/run-baseline.js';
import type { GateResult } from '../report/run-result.js';
import type { ReplayMissSummary } from '../report/replay-miss-summary.js';
import type { CaseResult } from '../scoring/case-result.js';

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

/** A case of a run as the run screen lists it (the whole result is the case endpoint's). */
export interface CaseRow {
  readonly run: string;
  readonly test_id: string;
  readonly status: 'pass' | 'fail' | 'error' | 'unreliable';
  readonly score: number;
  readonly tags: readonly string[];
  /** The tools the case expects. */
  readonly tools: readonly string[];
  /** The tools it called, in order. */
  readonly called: readonly string[];
  /** Repeated cases: samples passed of run, and whether they disagreed; null for a case run once. */
  readonly samples: {
    readonly passed: number;
    readonly total: number;
    readonly flaky: boolean;
  } | null;
  /** The first problem, for the list; null when none. */
  readonly problem: string | null;
  readonly duration_ms: number;
  /** How this case behaves differently from the run's baseline, in words; null when it does not (or there is no baseline). */
  readonly change: string | null;
}

/** `GET /calltape/api/v1/runs/{id}`: a run, its gates, its cases, and how it compares with its baseline. */
export interface RunAnswer {
  readonly version: typeof viewApiVersion;
  readonly run: RunListing;
  readonly file: string;
  readonly cassette: string;
  /** The quality gates, as the JSON report has them (config/test-report.schema.json `gates`). */
  readonly gates: readonly GateResult[];
  readonly cases: readonly CaseRow[];
  /** The JSON report's `baseline` (the behaviour diff), or null. */
  readonly baseline: RunBaseline | null;
  /** The JSON report's `replay_misses`, or null. */
  readonly replay_misses: ReplayMissSummary | null;
}

/** One tool call of a recorded round trip, with what came back. */
export interface RecordedCall {
  readonly id: string | null;
  readonly name: string;
  /** The arguments exactly as the model wrote them. */
  readonly arguments: string;
  /** The result the model got next (the agent's tool or a mock); null when none was sent. */
  readonly result: string | null;
  readonly failed: boolean;
  /** The mock set that answered it inside the proxy; null when the agent ran the tool. */
  readonly mocked_by: string | null;
}

/** A tool the provider ran itself (hosted: web search, a remote MCP server…). */
export interface RecordedHostedCall {
  readonly kind: string;
  readonly server: string | null;
  readonly name: string;
  readonly arguments: string;
  readonly result: string | null;
  readonly failed: boolean;
}

/** One LLM round trip of a case, from the cassette. */
export interface RecordedRound {
  readonly started_at: string;
  readonly duration_ms: number;
  readonly status: string;
  readonly model: string | null;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  /** Messages this round trip's request added to the conversation (the first one carries them all). */
  readonly messages: readonly { readonly role: string; readonly text: string }[];
  /** What the model wrote. */
  readonly text: string;
  readonly calls: readonly RecordedCall[];
  readonly hosted: readonly RecordedHostedCall[];
  /** Answered inside the proxy: the agent never saw it. */
  readonly hidden: boolean;
}

/** An MCP tools/call the session made through calltape, with its server. */
export interface RecordedMcpCall {
  readonly server: string;
  readonly name: string;
  readonly arguments: string;
  readonly result: string | null;
  readonly failed: boolean;
  readonly mocked: boolean;
}

/** A case's recording: where it is and, when the cassette is there, what it holds. */
export interface CaseRecording {
  /** The cassette, relative to the served project when inside it. */
  readonly cassette: string;
  readonly session: string;
  /** Whether the cassette could be read (absent, outside the project, or without the session: false, with `note` saying which). */
  readonly present: boolean;
  readonly note: string | null;
  readonly rounds: readonly RecordedRound[];
  readonly mcp: readonly RecordedMcpCall[];
}

/** `GET /calltape/api/v1/runs/{id}/cases/{config}/{test_id}`: one case, whole. */
export interface CaseAnswer {
  readonly version: typeof viewApiVersion;
  readonly run: RunListing;
  /** The case result as the JSON report has it (config/test-report.schema.json `cases` item). */
  readonly result: CaseResult;
  /** How it behaves differently from the run's baseline (the report's `baseline.diff.cases` item), or null. */
  readonly change: CaseBehaviourChange | null;
  readonly recording: CaseRecording;
  /** The command that runs just this case again. */
  readonly rerun_command: string;
}

/** `GET /calltape/api/v1/compare/{before}/{after}`: what behaves differently between two runs. */
export interface CompareAnswer {
  readonly version: typeof viewApiVersion;
  readonly before: RunListing;
  readonly after: RunListing;
  /** The behaviour diff (test-report.schema.json `baseline.diff`): flips, calls added/removed, arguments changed. */
  readonly diff: BehaviourDiff;
  /** The later run's replay misses grouped by what drifted in the requests, or null. */
  readonly replay_misses: ReplayMissSummary | null;
}

/**
 * `GET /calltape/api/v1/configurations?run=12&run=13:small`: run configurations side by side, one
 * column each — every configuration of a run named by id (`#12`, or `#12:small` when it has
 * several), or the one named after its colon (`#13:small`).
 */
export interface ConfigurationsAnswer {
  readonly version: typeof viewApiVersion;
  /** The runs named, in the order asked. */
  readonly runs: readonly RunListing[];
  /** Tools offered, pass rate, judges, tokens, price and latency per configuration; pass rate per expected tool and tag. */
  readonly matrix: ConfigurationMatrix;
}

/** Most runs one side-by-side table takes (each adds at least one column). */
export const maxComparedRuns = 12;

/**
 * The API path of the configurations side by side of some runs (`12`, `12:small`): built one
 * way, so an exported file finds the answer under the path the app asks for.
 */
export function configurationsPath(references: readonly string[]): string {
  return `configurations?${new URLSearchParams(references.map((reference): [string, string] => ['run', reference])).toString()}`;
}
