/**
 * Runs an agent module (`agent.module: ./agent.js#run`) on a worker thread: imports it once, then
 * calls its export once per case, one case at a time, with the thread's `process.env` set to the
 * case's for the length of the call and put back after it, so nothing a case sets is seen by the
 * next. docs/reference/agent-module.md is the contract.
 */
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type {
  AgentModuleLoaded,
  AgentModuleRequest,
  AgentModuleResponse,
  AgentModuleTarget,
} from './module-agent-protocol.js';

const port = parentPort;
if (!port) throw new Error('module-agent-worker must run as a worker thread');
const target = workerData as AgentModuleTarget;
// The environment the thread started with: every case starts from it.
const baseline: Record<string, string | undefined> = { ...process.env };

type AgentFunction = (input: unknown) => unknown;

async function load(): Promise<AgentFunction | string> {
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(target.path).href)) as Record<string, unknown>;
  } catch (error) {
    const message = (error as Error).message;
    const hint =
      target.path.endsWith('.ts') && /Unknown file extension/.test(message)
        ? ' (a .ts module needs a TypeScript loader, e.g. node --import tsx, or compile it to .js)'
        : '';
    return `cannot load ${target.path}: ${message}${hint}`;
  }
  const fn = Object.hasOwn(exported, target.exportName) ? exported[target.exportName] : undefined;
  if (typeof fn === 'function') return fn as AgentFunction;
  const names = Object.keys(exported).filter((name) => typeof exported[name] === 'function');
  return `${target.path} has no function export "${target.exportName}" (its function exports: ${names.length > 0 ? names.join(', ') : 'none'})`;
}

function useEnvironment(env: { readonly [name: string]: string }): void {
  for (const name of Object.keys(process.env))
    if (!Object.hasOwn(baseline, name)) Reflect.deleteProperty(process.env, name);
  for (const [name, value] of Object.entries(baseline))
    if (value !== undefined) process.env[name] = value;
  for (const [name, value] of Object.entries(env)) process.env[name] = value;
}

/** What the report keeps of a returned value: text as is, anything else as JSON. */
function outputOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Waits until what the case printed has been handed to the parent, so it is kept with the case. */
function flushed(): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.write('', () => process.stderr.write('', () => resolve()));
  });
}

const agent = await load();
port.postMessage({
  type: 'loaded',
  ...(typeof agent === 'string' ? { error: agent } : {}),
} satisfies AgentModuleLoaded);

if (typeof agent !== 'string') {
  // Cases arrive one at a time: the host sends the next only after this one answered.
  port.on('message', (request: AgentModuleRequest) => {
    useEnvironment(request.input.env);
    void (async (): Promise<AgentModuleResponse> => {
      try {
        return { id: request.id, ok: true, output: outputOf(await agent(request.input)) };
      } catch (error) {
        const text =
          error instanceof Error
            ? (error.stack ?? `${error.name}: ${error.message}`)
            : String(error);
        return { id: request.id, ok: false, error: text };
      } finally {
        useEnvironment({});
        await flushed();
      }
    })().then((response) => port.postMessage(response));
  });
}
