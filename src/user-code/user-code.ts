import { isAbsolute, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../worker-script.js';
import { codeRefusal, defaultCodePolicy, type CodePolicy } from './code-policy.js';
import type { UserCodeRequest, UserCodeResponse } from './user-code-protocol.js';

export interface UserCall {
  /** Module path, relative to `baseDir` unless absolute. */
  readonly module: string;
  readonly exports: readonly string[];
  readonly signature: string;
  readonly args: readonly unknown[];
  readonly timeoutMs: number;
}

export interface UserCode {
  /** Calls the function; rejects on a throw, a timeout, a module that cannot load or the policy refuses, or an answer that is not plain data. */
  call(request: UserCall): Promise<unknown>;
  /** Stops the thread. */
  close(): Promise<void>;
}

/**
 * Runs user functions on one worker thread, reused across calls (modules load once). A call that
 * does not answer within its timeout has its thread terminated, so even a function stuck in a
 * loop costs only the timeout; the next call gets a fresh thread. Calls waiting on the same
 * thread when it is terminated fail with it. A module the policy refuses (`--no-code`, or outside
 * the project root of `baseDir`) is never loaded: the call rejects with the reason.
 */
export function createUserCode(baseDir: string, policy: CodePolicy = defaultCodePolicy): UserCode {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<
    number,
    {
      worker: Worker;
      resolve: (response: UserCodeResponse) => void;
      reject: (error: Error) => void;
    }
  >();

  /** Fails the calls waiting on one thread (or on any, with no thread given). */
  const failAll = (on: Worker | undefined, error: Error): void => {
    for (const [id, waiter] of pending) {
      if (on !== undefined && waiter.worker !== on) continue;
      pending.delete(id);
      waiter.reject(error);
    }
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(workerScript('user-code/user-code-worker'));
    started.on('message', (response: UserCodeResponse) => {
      pending.get(response.id)?.resolve(response);
      pending.delete(response.id);
    });
    started.on('error', (error) => {
      if (worker === started) worker = undefined;
      failAll(started, new Error(`the user code thread failed: ${error.message}`));
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      failAll(started, new Error('the user code thread exited'));
    });
    // Waiting calls keep the process alive; an idle thread does not.
    started.unref();
    return (worker = started);
  };

  return {
    async call(call) {
      const refused = codeRefusal(call.module, baseDir, policy);
      if (refused !== undefined) throw new Error(refused);
      const id = nextId++;
      const current = thread();
      const request: UserCodeRequest = {
        id,
        module: isAbsolute(call.module) ? call.module : resolve(baseDir, call.module),
        exports: call.exports,
        signature: call.signature,
        args: call.args,
      };
      const response = await new Promise<UserCodeResponse>((resolveResponse, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // The only way to stop a synchronous loop: end the thread.
          if (worker === current) worker = undefined;
          void current.terminate();
          reject(new Error(`timed out after ${call.timeoutMs} ms`));
        }, call.timeoutMs);
        const settle =
          <T>(finish: (value: T) => void) =>
          (value: T): void => {
            clearTimeout(timer);
            finish(value);
          };
        pending.set(id, {
          worker: current,
          resolve: settle(resolveResponse),
          reject: settle(reject),
        });
        try {
          current.postMessage(request);
        } catch (error) {
          pending.delete(id);
          clearTimeout(timer);
          reject(new Error(`cannot hand the arguments over: ${(error as Error).message}`));
        }
      });
      if (!response.ok) throw new Error(response.error);
      return response.value;
    },
    async close() {
      const current = worker;
      worker = undefined;
      failAll(undefined, new Error('closed'));
      await current?.terminate();
    },
  };
}
