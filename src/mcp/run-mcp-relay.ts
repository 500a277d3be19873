import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { parseMessage, responseMessage, type JsonRpcId } from './json-rpc.js';
import { readLines, writerTo } from './line-stream.js';
import type { McpAnswer, McpResponder, PendingMcpRequest } from './mcp-responder.js';
import { noteInterim } from './note-interim.js';
import { interimMessages, progressTokenOf } from './replay-interim.js';

/** How `calltape mcp` treats the server: relay and record, relay only, relay and compare with the recordings, or answer without it. */
export type McpMode = 'record' | 'replay' | 'passthrough' | 'diff';

export interface McpRelayOptions {
  readonly mode: McpMode;
  /** The server command; empty when a mocks file stands in for the whole server. */
  readonly command: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly responder: McpResponder;
  /** The client side: its messages in, the answers out (the relay's stdin and stdout). */
  readonly input: Readable;
  readonly output: Writable;
  /** Where calltape's own messages and the server's stderr go. */
  readonly errors: Writable;
}

/** In-flight requests are bounded: a client that never sees answers cannot grow the relay forever. */
const maxInFlight = 10_000;

/**
 * Runs one MCP stdio session. With a server: every line goes through unchanged and in order, both
 * ways (requests, responses, notifications, server-to-client requests); mocked tools/call are
 * answered here and never reach the server; answers to recorded methods are stored. Without one
 * (replay, or no command): calltape answers from the cassette and the mocks file. Resolves with
 * the exit code: the server's, or in replay 1 when a request missed.
 */
export function runMcpRelay(options: McpRelayOptions): Promise<number> {
  if (options.mode === 'replay' || options.command.length === 0) return answerOffline(options);
  return relayToServer(options);
}

/**
 * Without the server: each request is answered in turn, after what the server sent during it
 * when recorded (progress, requests to the client — whose answers are awaited, as the server
 * awaited them). The client's answers to those requests are read here and go nowhere else.
 */
function answerOffline({ input, output, responder }: McpRelayOptions): Promise<number> {
  const write = writerTo(output, input);
  const awaiting = new Map<string, () => void>();
  let sent = 0;
  let ended = false;
  let turn = Promise.resolve();
  return new Promise((resolve) => {
    readLines(
      input,
      (bytes, complete) => {
        if (!complete) return;
        const message = parseMessage(bytes.toString('utf8'));
        if (message.kind === 'response') {
          awaiting.get(idKey(message.id))?.();
          return;
        }
        if (message.kind !== 'request') return;
        turn = turn.then(async () => {
          const answer = responder.answerOffline(message.method, message.params, message.id);
          const interim = interimMessages(
            answer.during ?? [],
            progressTokenOf(message.params),
            () => `calltape-replay-${++sent}`,
          );
          for (const { message: sending, awaitsAnswer } of interim) {
            const answered =
              awaitsAnswer && !ended
                ? new Promise<void>((done) => {
                    const key = idKey(sending['id'] as JsonRpcId);
                    awaiting.set(key, () => {
                      awaiting.delete(key);
                      done();
                    });
                  })
                : undefined;
            write(`${JSON.stringify(sending)}\n`);
            await answered;
          }
          write(answerLine(message.id, answer));
        });
      },
      () => {
        // The client went away: nothing will answer the requests still awaited.
        ended = true;
        for (const release of [...awaiting.values()]) release();
        void turn.then(() => resolve(responder.misses.length > 0 ? 1 : 0));
      },
    );
  });
}

function relayToServer({
  command,
  env,
  responder,
  input,
  output,
  errors,
}: McpRelayOptions): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  const inFlight = new Map<string, PendingMcpRequest>();
  const toClient = writerTo(output, child.stdout);
  const mockToClient = writerTo(output, input);
  const toServer = writerTo(child.stdin, input);
  child.stderr.pipe(errors, { end: false });
  // The server may exit before reading everything: a broken pipe is its business, not a crash here.
  child.stdin.on('error', () => undefined);

  readLines(
    input,
    (bytes, complete) => {
      const message = complete ? parseMessage(bytes.toString('utf8')) : undefined;
      if (message?.kind === 'request') {
        const pending = responder.begin(message.method, message.params, message.id);
        const mocked = pending && responder.mock(pending, message.id, message.params);
        if (mocked) return mockToClient(answerLine(message.id, mocked));
        if (pending) {
          inFlight.set(idKey(message.id), pending);
          if (inFlight.size > maxInFlight) inFlight.delete(inFlight.keys().next().value as string);
        }
      }
      toServer(bytes);
    },
    () => child.stdin.end(),
  );
  readLines(
    child.stdout,
    (bytes, complete) => {
      toClient(bytes);
      const message = complete ? parseMessage(bytes.toString('utf8')) : undefined;
      if (message?.kind === 'notification' || message?.kind === 'request') {
        noteInterim(inFlight.values(), message);
        return;
      }
      if (message?.kind !== 'response') return;
      const pending = inFlight.get(idKey(message.id));
      if (!pending) return;
      inFlight.delete(idKey(message.id));
      responder.record(pending, { result: message.result, error: message.error });
    },
    () => undefined,
  );

  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      errors.write(`calltape mcp: cannot run ${file}: ${error.message}\n`);
      resolve(127);
    });
    child.once('close', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function answerLine(id: JsonRpcId, answer: McpAnswer): string {
  return `${JSON.stringify(responseMessage(id, answer))}\n`;
}

/** Ids 1 and "1" are different requests. */
function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}
