import type { TrajectoryCase } from './trajectory/types.js';
import type { TestCase } from './types.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';

/** One case of a suite: call expectations and/or trajectory checks, plus what the runner needs. */
export type SuiteCase = TestCase &
  TrajectoryCase & {
    readonly test_id: string;
    readonly tags?: readonly string[];
    /** Further mock files for this case (absolute after loading). */
    readonly mocks?: readonly string[];
    /** Direct mode: the conversation to send instead of system + prompt. */
    readonly messages?: readonly JsonValue[];
    /** A conversation instead of one prompt: user turns in order, each with its own expectations. */
    readonly turns?: readonly ConversationTurn[];
    /** A draft: pending review, or rejected and kept. Drafts are listed, never run or gated. */
    readonly review?: 'pending' | 'rejected';
    /** Where the case came from (generated from guidelines, promoted from traffic). */
    readonly provenance?: CaseProvenance;
  };

/**
 * One user turn of a conversation case: what the user says and what the agent's calls in this
 * turn must show — a case's own expectation fields, scored over this turn's calls only.
 */
export type ConversationTurn = TestCase &
  TrajectoryCase & {
    /** The user's message. */
    readonly user: string;
  };

/** Where a case came from; config/suite.schema.json#/$defs/provenance. */
export interface CaseProvenance {
  readonly source: 'generated' | 'promoted';
  readonly tool?: string;
  readonly kind?: 'positive' | 'negative';
  readonly guideline?: string;
  readonly topic?: string;
  readonly generator?: string;
  readonly guidelines_file?: string;
  /** Promoted: the session the case was taken from. */
  readonly session?: string;
  /** Promoted: the cassette it was recorded in, relative to the suite. */
  readonly cassette?: string;
  /** Promoted: the shadow-scoring database it was picked from, relative to the suite. */
  readonly shadow_db?: string;
  /** Promoted: `policy/reason: message` of each policy failure, the reason it was promoted. */
  readonly failures?: readonly string[];
  /** `calltape generate --run`: what the agent under test did with the prompt. */
  readonly captured?: {
    readonly session: string;
    /** pass: the agent did what the draft expects. */
    readonly verdict: 'pass' | 'fail' | 'error' | 'unreliable';
    /** `tool(arguments)` of each call it made. */
    readonly calls: readonly string[];
    readonly error?: string;
  };
}

export interface AgentSpec {
  readonly command: string;
  readonly input: 'arg' | 'stdin' | 'env';
  /** Absolute. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly env: { readonly [name: string]: string };
}

/** A run configuration: the same cases under another model, prompt or tool set. */
export interface RunConfig {
  readonly name: string;
  readonly model: string | undefined;
  readonly system: string | undefined;
  /** OpenAI tool definitions sent in direct mode. */
  readonly tools: readonly JsonValue[];
  /** Parameter schemas by tool name, for call scoring. */
  readonly schemas: { readonly [tool: string]: JsonSchema };
  /** US dollars per million tokens, for the cost column; undefined when the suite gives none. */
  readonly price: Price | undefined;
}

/** A model's price: US dollars per million input and output tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
}

export interface Gates {
  readonly pass_rate?: number;
  /** Gate `pass_rate` on the Wilson lower bound of the samples' pass rate at this confidence (0.95: 95 %) instead of on the rate itself. */
  readonly confidence?: number;
  readonly mean_score?: number;
  readonly per_tag?: { readonly [tag: string]: number };
  readonly per_tool?: { readonly [tool: string]: number };
  readonly max_regression?: number;
  /** How cases whose expected tool was not offered count in the gates: as failures (default), or left out. */
  readonly unreliable?: 'fail' | 'ignore';
}

/** A loaded suite: paths resolved, tools read, cases checked. */
export interface Suite {
  readonly file: string;
  readonly name: string;
  readonly agent: AgentSpec | undefined;
  readonly runs: readonly RunConfig[];
  /** Mock files for every case (absolute). */
  readonly mocks: readonly string[];
  /** Absolute: the suite's `cassette` resolved against the suite's folder, else `recordings/<name>.sqlite` there. */
  readonly cassette: string;
  /** The suite's pinned scoring clock, when it sets `now`. */
  readonly now: Date | undefined;
  readonly checks: TrajectoryCase;
  readonly defaults: Pick<TestCase, 'extra_arguments' | 'multiple_calls' | 'pass_threshold'>;
  readonly gates: Gates;
  /** How many times each case runs (`repeats`, `--repeat`): each run is a sample with its own recording. Default 1. */
  readonly repeats?: number;
  /** The share of a repeated case's samples that must pass for the case to pass. Default 1. */
  readonly min_pass_rate?: number;
  /** The reviewed cases: what runs and counts in the gates. */
  readonly cases: readonly SuiteCase[];
  /** Draft cases (`review: pending` or `rejected`), in file order: listed in reports, never run. */
  readonly drafts: readonly SuiteCase[];
}
