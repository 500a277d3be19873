import type { JudgeSpec, TrajectoryCase } from './trajectory/types.js';
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
    /** A simulated user that goes on after the scripted turns (config/test-case.schema.json `user`). */
    readonly user?: SimulatedUserSpec;
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

/** A model that plays the user from a persona and a goal. */
export interface SimulatedUserSpec {
  readonly persona?: string;
  readonly goal: string;
  /** Judged on the conversation so far before each next user turn: a pass ends it (`goal`). */
  readonly stop_when?: JudgeSpec;
  /** Most user turns, scripted ones included; default 10. */
  readonly max_turns?: number;
  /** Default: the run's model. */
  readonly model?: string;
}

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

/** Agent mode: the agent under test, a command calltape starts per case, a server it posts to, or a module it calls. */
export type AgentSpec = ProcessAgentSpec | HttpAgentSpec | ModuleAgentSpec;

/** An agent calltape starts with a shell, once per case. */
export interface ProcessAgentSpec {
  readonly kind: 'process';
  readonly command: string;
  /** How a single-prompt case's prompt reaches it (unused with protocol `jsonl`). */
  readonly input: 'arg' | 'stdin' | 'env';
  /**
   * `prompt`: one prompt per run, as `input` says; `jsonl`: it converses, user turns and replies
   * as JSON lines on its stdin and stdout (docs/reference/conversation-protocol.md).
   */
  readonly protocol: 'prompt' | 'jsonl';
  /** Absolute. */
  readonly cwd: string;
  /** The whole run (the whole conversation), after which its process group is killed. */
  readonly timeoutMs: number;
  /** Conversations: the longest one user turn may take to be answered. */
  readonly turnTimeoutMs: number;
  readonly env: { readonly [name: string]: string };
}

/**
 * An agent given as a module (`agent.module: ./agent.js#run`): calltape imports it once per
 * worker thread and calls the export once per case, one case at a time per thread
 * (docs/reference/agent-module.md).
 */
export interface ModuleAgentSpec {
  readonly kind: 'module';
  /** The module's absolute path. */
  readonly path: string;
  /** The export called per case (`default` when the suite names none). */
  readonly exportName: string;
  /** `agent.module` as the suite wrote it, for messages. */
  readonly written: string;
  /** One case's run, after which its thread is terminated (the next case gets a fresh one). */
  readonly timeoutMs: number;
  readonly env: { readonly [name: string]: string };
}

/** An agent the user serves over HTTP; calltape POSTs each user turn to `url`. */
export interface HttpAgentSpec {
  readonly kind: 'http';
  readonly url: string;
  /** The whole conversation. */
  readonly timeoutMs: number;
  /** The longest one user turn may take to be answered. */
  readonly turnTimeoutMs: number;
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
