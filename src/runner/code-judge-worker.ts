/**
 * Runs user judge modules on a worker thread, so a judge that loops forever can be stopped
 * (the thread is terminated) without stopping the run that asked it.
 */
import { parentPort } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { CodeJudgeRequest, CodeJudgeResponse } from './code-judge-protocol.js';

const port = parentPort;
if (!port) throw new Error('code-judge-worker must run as a worker thread');

type JudgeFunction = (trajectory: unknown, testCase: unknown) => unknown;
const loaded = new Map<string, Promise<JudgeFunction>>();

async function load(path: string): Promise<JudgeFunction> {
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const message = (error as Error).message;
    const hint = path.endsWith('.ts') && /Unknown file extension/.test(message) ? ' (a .ts judge needs a TypeScript loader, e.g. node --import tsx, or compile it to .js)' : '';
    throw new Error(`cannot load ${path}: ${message}${hint}`);
  }
  const judge = exported['judge'] ?? exported['default'];
  if (typeof judge !== 'function') throw new Error(`${path} exports no judge function (export function judge(trajectory, testCase) { … })`);
  return judge as JudgeFunction;
}

port.on('message', (request: CodeJudgeRequest) => {
  void (async (): Promise<CodeJudgeResponse> => {
    try {
      let judge = loaded.get(request.module);
      if (!judge) loaded.set(request.module, (judge = load(request.module)));
      const verdict = await (await judge)(request.trajectory, request.testCase);
      return { id: request.id, ok: true, verdict };
    } catch (error) {
      return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  })().then((response) => {
    try {
      port.postMessage(response);
    } catch (error) {
      // A verdict that cannot cross threads (a function, a symbol) is the judge's error.
      port.postMessage({ id: request.id, ok: false, error: `answered something that is not plain data: ${(error as Error).message}` } satisfies CodeJudgeResponse);
    }
  });
});
