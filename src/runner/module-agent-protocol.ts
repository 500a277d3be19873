/** The messages between module-agents.ts (the host) and module-agent-worker.ts. */

/** The worker's `workerData`: which module and export it runs. */
export interface AgentModuleTarget {
  /** Absolute path of the agent module. */
  readonly path: string;
  readonly exportName: string;
}

/** Sent once, after the import: `error` says why the module cannot run (it did not load, or lacks the export). */
export interface AgentModuleLoaded {
  readonly type: 'loaded';
  readonly error?: string;
}

/** What the agent's function is called with (docs/reference/agent-module.md). */
export interface AgentModuleInput {
  /** The case's prompt. */
  readonly prompt: string;
  /** The case's test id. */
  readonly caseId: string;
  /** The case's variables: base URLs of its session, key, model, run name, `agent.env`. */
  readonly env: { readonly [name: string]: string };
}

/** One case to run. */
export interface AgentModuleRequest {
  readonly id: number;
  readonly input: AgentModuleInput;
}

/** How the case's call ended: what it returned (as text), or what it threw. */
export type AgentModuleResponse =
  | { readonly id: number; readonly ok: true; readonly output: string }
  | { readonly id: number; readonly ok: false; readonly error: string };
