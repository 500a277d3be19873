/**
 * Runs functions from user modules (judges, mock responders) on a worker thread, so one that
 * loops forever can be stopped (the thread is terminated) without stopping the run that asked.
 */
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import type { UserCodeRequest, UserCodeResponse } from './user-code-protocol.js';

const port = parentPort;
if (!port) throw new Error('user-code-worker must run as a worker thread');

type UserFunction = (...args: unknown[]) => unknown;
const loaded = new Map<string, Promise<Record<string, unknown>>>();

async function load(path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const message = (error as Error).message;
    const hint =
      path.endsWith('.ts') && /Unknown file extension/.test(message)
        ? ' (a .ts module needs a TypeScript loader, e.g. node --import tsx, or compile it to .js)'
        : '';
    throw new Error(`cannot load ${path}: ${message}${hint}`);
  }
}

async function call(request: UserCodeRequest): Promise<unknown> {
  let module = loaded.get(request.module);
  if (!module) loaded.set(request.module, (module = load(request.module)));
  const exported = await module;
  const fn = request.exports
    .map((name) => exported[name])
    .find((value) => typeof value === 'function');
  if (!fn)
    throw new Error(
      `${request.module} exports no ${request.exports[0]} function (export function ${request.signature} { … })`,
    );
  return (fn as UserFunction)(...request.args);
}

port.on('message', (request: UserCodeRequest) => {
  // The last step catches its own errors, so the chain never rejects.
  void call(request)
    .then(
      (value): UserCodeResponse => ({ id: request.id, ok: true, value }),
      (error: unknown): UserCodeResponse => ({
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    .then((response) => {
      try {
        port.postMessage(response);
      } catch (error) {
        // An answer that cannot cross threads (a function, a symbol) is the user code's error.
        port.postMessage({
          id: request.id,
          ok: false,
          error: `answered something that is not plain data: ${(error as Error).message}`,
        } satisfies UserCodeResponse);
      }
    });
});
