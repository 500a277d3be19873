import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CalltapeError } from '../errors.js';
import type { CaseResult } from '../scoring/case-result.js';
import type { ModuleAgentSpec } from '../scoring/suite-types.js';
import { workerScript } from '../worker-script.js';
import { boundedOutput } from './agent-process.js';
import type {
  AgentModuleInput,
  AgentModuleLoaded,
  AgentModuleResponse,
  AgentModuleTarget,
} from './module-agent-protocol.js';

/**
 * Cases run at once in agent mode when `--concurrency` is not given and the model answers
 * (record, auto): an agent spends most of a case waiting on it, so one case per core leaves the
 * cores idle. Replaying, the agent waits only on the proxy in this process, which is CPU work:
 * there one case per core is the most that helps (on the test benchmark, 4 per core cost twice
 * the CPU per case of 1 per core, each thread importing the agent's SDK).
 */
export function defaultAgentConcurrency(): number {
  return 4 * cpus().length;
}

/** How one case's call of the agent module ended, as the report keeps an agent's run, and why it failed if it did. */
export interface ModuleAgentRun {
  readonly agent: NonNullable<CaseResult['agent']>;
  /** Why the run says nothing about the model (it threw, timed out, or the thread died); null when it returned. */
  readonly error: string | null;
}

/** The threads that run a suite's agent module, one case at a time each. */
export interface ModuleAgents {
  /** Loads the module on one thread; throws CONFIG_INVALID naming the suite file and `agent.module` when it cannot run. */
  check(): Promise<void>;
  /** Runs one case on an idle thread (started on first use; replaced after a timeout or a crash). */
  run(input: AgentModuleInput): Promise<ModuleAgentRun>;
  close(): Promise<void>;
}

interface Thread {
  readonly worker: Worker;
  readonly loaded: Promise<string | undefined>;
  /** The case running on it: where its output goes and how it ends. */
  current:
    | {
        readonly id: number;
        readonly stdout: ReturnType<typeof boundedOutput>;
        readonly stderr: ReturnType<typeof boundedOutput>;
        readonly settle: (response: AgentModuleResponse | { crashed: string }) => void;
      }
    | undefined;
}

/**
 * Up to `size` worker threads, each importing the agent module once and running cases one after
 * another: no process start or SDK import per case. A case past its timeout has its thread
 * terminated (the only way to stop a function that never returns) and the next case gets a new
 * one; so does every case after a thread crashed.
 */
export function startModuleAgents(
  spec: ModuleAgentSpec,
  suiteFile: string,
  size: number,
): ModuleAgents {
  const idle: Thread[] = [];
  const all = new Set<Thread>();
  let started = 0;
  let nextId = 0;
  const waiting: ((thread: Thread) => void)[] = [];
  const field = `${suiteFile}: agent.module`;

  const startThread = (): Thread => {
    const target: AgentModuleTarget = { path: spec.path, exportName: spec.exportName };
    const worker = new Worker(workerScript('runner/module-agent-worker'), {
      workerData: target,
      stdout: true,
      stderr: true,
    });
    let loaded!: (error: string | undefined) => void;
    const thread: Thread = {
      worker,
      loaded: new Promise((resolve) => (loaded = resolve)),
      current: undefined,
    };
    worker.stdout.on('data', (chunk: Buffer) => thread.current?.stdout.append(chunk.toString()));
    worker.stderr.on('data', (chunk: Buffer) => thread.current?.stderr.append(chunk.toString()));
    worker.on('message', (message: AgentModuleLoaded | AgentModuleResponse) => {
      if ('type' in message) return loaded(message.error);
      if (thread.current?.id === message.id) thread.current.settle(message);
    });
    const gone = (why: string): void => {
      all.delete(thread);
      loaded(why);
      thread.current?.settle({ crashed: why });
    };
    worker.on('error', (error) => gone(`the agent's thread failed: ${error.message}`));
    worker.on('exit', (code) => gone(`the agent's thread exited (code ${code})`));
    all.add(thread);
    return thread;
  };

  const take = (): Promise<Thread> => {
    // A thread that crashed while idle is passed over (its place is free again).
    for (let thread = idle.pop(); thread; thread = idle.pop()) {
      if (all.has(thread)) return Promise.resolve(thread);
      started--;
    }
    if (started < size) {
      started++;
      return Promise.resolve(startThread());
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const give = (thread: Thread | undefined): void => {
    // A thread that was terminated or crashed is replaced by a new one for whoever waits next.
    const next = thread && all.has(thread) ? thread : undefined;
    if (!next) started--;
    const waiter = waiting.shift();
    if (waiter) waiter(next ?? (started++, startThread()));
    else if (next) idle.push(next);
  };

  return {
    async check() {
      const thread = await take();
      const error = await thread.loaded;
      give(thread);
      if (error !== undefined)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${field}: ${spec.written}: ${error}`,
          'The agent module is called once per case: export async function run({ prompt, caseId, env }) { … } (docs/reference/agent-module.md).',
        );
    },
    async run(input) {
      const thread = await take();
      const id = nextId++;
      const stdout = boundedOutput();
      const stderr = boundedOutput();
      let timedOut = false;
      const loadError = await thread.loaded;
      const ended =
        loadError !== undefined
          ? { crashed: loadError }
          : await new Promise<AgentModuleResponse | { crashed: string }>((resolve) => {
              const timer = setTimeout(() => {
                timedOut = true;
                all.delete(thread);
                void thread.worker.terminate();
              }, spec.timeoutMs);
              thread.current = {
                id,
                stdout,
                stderr,
                settle: (response) => {
                  clearTimeout(timer);
                  thread.current = undefined;
                  resolve(response);
                },
              };
              thread.worker.postMessage({ id, input });
            });
      give(thread);
      const threw = 'ok' in ended && !ended.ok ? ended.error : undefined;
      if (threw !== undefined) stderr.append(threw);
      const agent: NonNullable<CaseResult['agent']> = {
        exit_code: 'ok' in ended && ended.ok ? 0 : 1,
        signal: null,
        timed_out: timedOut,
        stdout: 'ok' in ended && ended.ok ? `${stdout.text()}${ended.output}` : stdout.text(),
        stderr: stderr.text(),
      };
      const error = timedOut
        ? null
        : threw !== undefined
          ? `${field} ${spec.written} threw: ${firstLine(threw)}`
          : 'crashed' in ended
            ? `${field} ${spec.written}: ${ended.crashed}`
            : null;
      return { agent, error };
    },
    async close() {
      const threads = [...all];
      all.clear();
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}
