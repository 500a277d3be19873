import { isAbsolute, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CodeJudgeSpec, JudgeVerdict, TrajectoryCase } from '../scoring/trajectory/types.js';
import type { Trajectory } from '../trace/trajectory.js';
import { workerScript } from '../worker-script.js';
import type { CodeJudgeRequest, CodeJudgeResponse } from './code-judge-protocol.js';

export interface CodeJudges {
  /** Runs `judge(trajectory, testCase)` of the spec's module; rejects on a throw, a timeout or a module that cannot load. */
  run(spec: CodeJudgeSpec, trajectory: Trajectory, testCase: TrajectoryCase): Promise<JudgeVerdict>;
  /** Stops the judge thread. */
  close(): Promise<void>;
}

/**
 * Runs code judges on one worker thread, reused across cases (modules load once). A judge that
 * does not answer within its timeout has its thread terminated, so even a judge stuck in a loop
 * costs the run only the timeout; the next judge gets a fresh thread. Paths are resolved against
 * `baseDir` (the suite file's folder).
 */
export function createCodeJudges(options: { readonly baseDir: string; readonly defaultTimeoutMs?: number }): CodeJudges {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { worker: Worker; resolve: (response: CodeJudgeResponse) => void; reject: (error: Error) => void }>();

  /** Fails the judges waiting on one thread (a thread that ended takes only its own requests with it). */
  const failAll = (on: Worker | undefined, error: Error): void => {
    for (const [id, waiter] of pending) {
      if (on !== undefined && waiter.worker !== on) continue;
      pending.delete(id);
      waiter.reject(error);
    }
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(workerScript('runner/code-judge-worker'));
    started.on('message', (response: CodeJudgeResponse) => {
      pending.get(response.id)?.resolve(response);
      pending.delete(response.id);
    });
    started.on('error', (error) => {
      if (worker === started) worker = undefined;
      failAll(started, new Error(`the judge thread failed: ${error.message}`));
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      failAll(started, new Error('the judge thread exited'));
    });
    // Waiting judges keep the process alive; an idle thread does not.
    started.unref();
    return (worker = started);
  };

  return {
    async run(spec, trajectory, testCase) {
      const module = isAbsolute(spec.code) ? spec.code : resolve(options.baseDir, spec.code);
      const timeoutMs = spec.timeout_ms ?? options.defaultTimeoutMs ?? 5000;
      const id = nextId++;
      const current = thread();
      const request: CodeJudgeRequest = { id, module, trajectory, testCase };
      const response = await new Promise<CodeJudgeResponse>((resolveResponse, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // The only way to stop a synchronous loop: end the thread. Other waiting judges fail with it.
          if (worker === current) worker = undefined;
          void current.terminate();
          reject(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          worker: current,
          resolve: (value) => {
            clearTimeout(timer);
            resolveResponse(value);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        try {
          current.postMessage(request);
        } catch (error) {
          pending.delete(id);
          clearTimeout(timer);
          reject(new Error(`cannot hand the case to the judge: ${(error as Error).message}`));
        }
      });
      if (!response.ok) throw new Error(response.error);
      return response.verdict as JudgeVerdict;
    },
    async close() {
      const current = worker;
      worker = undefined;
      failAll(undefined, new Error('the judges were closed'));
      await current?.terminate();
    },
  };
}
