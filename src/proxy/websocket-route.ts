import type { IncomingMessage } from 'node:http';
import { CaptureBudget } from './guard/capture-budget.js';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { buildExchange } from '../cassette/build-exchange.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { credentialValues, type Redactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import { openAiResponsesAdapter } from '../providers/openai-responses/openai-responses-adapter.js';
import { decodeSse } from '../sse/decode-sse.js';
import { CalltapeError } from '../errors.js';
import type { Mock } from '../mocks/mock-types.js';
import { runToolLoop, type LoopRound } from '../mocks/tool-loop.js';
import { parseJson } from '../providers/json-access.js';
import type { ToolLoopWire } from '../providers/provider-adapter.js';
import { requestedModel, type ProxyObserver, type Where } from './route-types.js';
import { selectMocks, type MockState } from './mocked-route.js';
import { countMiss, describeMiss, findRecording, type ReplayStats } from './replay-lookup.js';
import type { CassetteRegistry } from './cassette-registry.js';
import { sessionHeader, upstreamRequestHeaders } from './headers.js';
import { ReplayKeys } from './replay-keys.js';
import type { Logger } from './logger.js';
import { timeOrderedId } from './time-ordered-id.js';
import type { Upstream } from './upstream.js';
import type { LiveTap } from '../live/live-service.js';

/** The model a `response.create` frame asks for, for metric labels. */
function modelOf(frame: Uint8Array): string | undefined {
  try {
    return requestedModel(JSON.parse(Buffer.from(frame).toString('utf8')));
  } catch {
    return undefined;
  }
}

const terminal = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);
/** The handshake is the ws library's to make; everything else the agent sent goes upstream. */
const handshake = new Set(['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'upgrade', 'connection']);

export interface WebSocketRouteDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly upstream: Upstream;
  readonly redactor: Redactor;
  readonly recorder: Recorder;
  readonly cassettes: CassetteRegistry;
  readonly stats: ReplayStats;
  readonly observer?: ProxyObserver | undefined;
  /** Mock tools, when configured: calls to them are answered inside the proxy over WebSocket too. */
  readonly mockState?: MockState | undefined;
  /** Metrics, the live feed and shadow scoring. */
  readonly live?: LiveTap | undefined;
}

/**
 * The Responses API over WebSocket (`/v1/responses`, the OpenAI SDK's WebSocket mode): frames
 * are relayed both ways unchanged and in order, and each `response.create` the agent sends, with
 * the server events up to its terminal event, is one round trip — recorded like a streamed
 * `POST /v1/responses` (the events as SSE, one per frame, so every frame's text comes back
 * exactly). In replay the proxy answers each `response.create` with the recorded frames.
 */
export function createWebSocketRoute(deps: WebSocketRouteDeps): (request: IncomingMessage, socket: Duplex, head: Buffer, where: Where) => void {
  const { config, logger, upstream, redactor, recorder, cassettes, stats, observer, live: liveTap } = deps;
  const server = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const keys = new ReplayKeys(config.match, redactor);
  const allowTools = new Set(config.mocks.allowTools);
  const adapter = openAiResponsesAdapter;

  return (request, socket, head, where) => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== sessionHeader));
    const capture = where.mode === 'record' || where.mode === 'auto';
    const replaying = where.mode === 'replay' || where.mode === 'auto';
    server.handleUpgrade(request, socket, head, (client) => {
      const mocks = deps.mockState ? selectMocks(deps.mockState, request.headers) : undefined;
      if (mocks instanceof Error) {
        client.send(JSON.stringify({ type: 'error', code: 'invalid_request', message: mocks.message }));
        client.close(1008, 'bad x-calltape-mocks');
        return;
      }
      void (async () => {
        const cassette = await cassettes.get(where.cassette, where.mode).catch((error: unknown) => {
          logger.error(`calltape: ${where.cassette}: ${(error as Error).message}`);
          return undefined;
        });
        let live: WebSocket | undefined;
        const pending: [RawData, boolean][] = [];
        const openUpstream = (): WebSocket => {
          const target = `${upstream.origin.replace(/^http/, 'ws')}${upstream.pathPrefix}${where.path}`;
          const outgoing = Object.fromEntries(Object.entries(upstreamRequestHeaders(request.headers)).filter(([name]) => !handshake.has(name)));
          const socketUp = new WebSocket(target, { headers: outgoing, perMessageDeflate: false });
          socketUp.on('open', () => {
            for (const [data, binary] of pending.splice(0)) socketUp.send(data, { binary });
          });
          socketUp.on('message', (data, binary) => {
            // Under mocks a turn is held until the tool loop knows what the agent may see.
            if (collector && !binary) return collector(data.toString());
            client.send(data, { binary });
            if (!binary) onServerFrame(data.toString());
          });
          socketUp.on('close', (code, reason) => client.close(validCode(code), reason));
          socketUp.on('error', (error) => {
            logger.error(`calltape: WebSocket to ${redactor.path(target)} failed: ${error.message}`);
            client.close(1011, 'upstream failed');
          });
          return socketUp;
        };

        // The round trip being captured: the agent's response.create and the server frames since.
        // calltape-hardening: `budget` bounds the frames kept per round (limits.maxResponseBytes); the agent still gets every frame.
        let round: { id: string; body: Buffer; startedAt: number; startedPerf: number; frames: Buffer[]; times: number[]; budget?: CaptureBudget } | undefined;
        const onServerFrame = (text: string): void => {
          if (!round) return;
          const type = frameType(text);
          const frame = Buffer.from(frameEvent(text));
          if ((round.budget ??= new CaptureBudget(config.limits.maxResponseBytes)).take(frame.length)) {
            round.frames.push(frame);
            round.times.push(performance.now() - round.startedPerf);
          }
          if (type !== undefined && terminal.has(type)) finishRound();
        };
        const finishRound = (ending: 'finished' | 'upstream-failed' | 'client-aborted' = 'finished'): void => {
          const done = round;
          round = undefined;
          if (done) recordRound(done, ending, {}, 0);
        };
        const recordRound = (done: NonNullable<typeof round>, ending: 'finished' | 'upstream-failed' | 'client-aborted', extra: Pick<CapturedRound, 'mocked' | 'hidden' | 'agentView'>, _loopRound: number): void => {
          if (!capture && !observer && !liveTap) return;
          const captured: CapturedRound = {
            ...extra,
            adapterId: adapter.id,
            request: { id: done.id, sessionId: where.sessionId ?? done.id, method: 'POST', path: where.path, headers, body: done.body, startedAt: done.startedAt },
            upstream: { status: 200, headers: { 'content-type': 'text/event-stream', 'x-calltape-transport': 'websocket' }, chunks: done.frames, chunkTimes: done.times, firstByteMs: done.times[0], totalMs: done.times.at(-1) ?? 0, ending, errorMessage: undefined, truncated: done.budget?.truncated },
            match: undefined,
            secrets: credentialValues(headers, where.path),
            proxyError: undefined,
          };
          if (capture) {
            stats.recorded++;
            recorder.record(where.cassette, captured);
          }
          if (observer) {
            try {
              observer.interaction(buildExchange(adapter, redactor, captured).interaction);
            } catch (error) {
              logger.error(`calltape: cannot trace a WebSocket round: ${(error as Error).message}`);
            }
          }
          liveTap?.round(captured, modelOf(done.body));
        };

        /** Under mocks: where server frames go while a loop round waits for its turn. */
        let collector: ((text: string) => void) | undefined;
        let loop = Promise.resolve();
        const sendUpstream = (text: string): void => {
          live ??= openUpstream();
          if (live.readyState === WebSocket.OPEN) live.send(text);
          else pending.push([Buffer.from(text), false]);
        };
        /** One loop round: the request frame upstream (or from the cassette), its frames collected up to the terminal event. */
        const roundTrip = async (frame: string, loopRound: number): Promise<LoopRound & { readonly frames: readonly string[] }> => {
          let frames: string[] = [];
          const fromCassette = replaying && cassette?.reader ? recordedFrames(frame, headers, cassette.reader, where) : undefined;
          if (fromCassette !== undefined) frames = fromCassette;
          else {
            round = { id: timeOrderedId(), body: Buffer.from(frame), startedAt: Date.now(), startedPerf: performance.now(), frames: [], times: [] };
            const current = round;
            frames = await new Promise<string[]>((resolve) => {
              const seen: string[] = [];
              collector = (text) => {
                seen.push(text);
                current.frames.push(Buffer.from(frameEvent(text)));
                current.times.push(performance.now() - current.startedPerf);
                const type = frameType(text);
                if (type !== undefined && terminal.has(type)) {
                  collector = undefined;
                  resolve(seen);
                }
              };
              sendUpstream(frame);
            });
          }
          const sse = frames.map(frameEvent).join('');
          const parsed = adapter.parseResponse({ httpStatus: 200, contentType: 'text/event-stream', body: [Buffer.from(sse)], ending: 'finished' });
          const captured = round;
          round = undefined;
          return {
            status: 200,
            body: sse,
            response: parsed.response,
            complete: parsed.status === 'complete',
            frames,
            record: (mocked, hidden, agentResponse) => {
              if (!captured) return;
              recordRound(captured, 'finished', { mocked, hidden, ...(agentResponse !== undefined ? { agentView: { response: Buffer.from(agentResponse) } } : {}) }, loopRound);
            },
          };
        };
        const answerWithMocks = async (frame: string, active: ReadonlyMap<string, Mock>): Promise<void> => {
          const agentBody = parseJson(frame);
          if (!agentBody.ok || !deps.mockState) return;
          let index = 0;
          const outcome = await runToolLoop(agentBody.value, {
            adapter: { ...adapter, toolLoop: adapter.toolLoop as ToolLoopWire },
            mocks: active,
            history: deps.mockState.history,
            counters: deps.mockState.counters,
            session: where.sessionId ?? '',
            maxHiddenRounds: config.mocks.maxHiddenRounds,
            strictTools: config.mocks.strictTools,
            allowTools,
            form: { stream: true, includeUsage: false },
            roundTrip: (body) => roundTrip(JSON.stringify(body), index++),
          }).catch((error: unknown) => ({ kind: 'error' as const, error: error instanceof CalltapeError ? error : new CalltapeError('UPSTREAM_UNREACHABLE', (error as Error).message) }));
          if (outcome.kind === 'error') {
            if (outcome.error.code === 'STRICT_TOOLS') stats.refused++;
            client.send(JSON.stringify({ type: 'error', code: outcome.error.type, message: outcome.error.message }));
            return;
          }
          const visible = outcome.body === undefined ? (outcome.round as LoopRound & { frames: readonly string[] }).frames : decodeSse([Buffer.from(outcome.body)]).map((event) => event.data);
          for (const text of visible) client.send(text);
        };

        client.on('message', (data, binary) => {
          const text = binary ? undefined : data.toString();
          if (text !== undefined && frameType(text) === 'response.create' && mocks && mocks.size > 0) {
            // Turns are answered one after another, as the agent sent them.
            loop = loop.then(() => answerWithMocks(text, mocks));
            return;
          }
          const starts = text !== undefined && frameType(text) === 'response.create';
          if (starts) {
            if (round) finishRound('upstream-failed');
            if (replaying && cassette?.reader && answerFromCassette(text, headers, client, cassette.reader, where)) return;
            round = { id: timeOrderedId(), body: Buffer.from(text), startedAt: Date.now(), startedPerf: performance.now(), frames: [], times: [] };
          }
          if (where.mode === 'replay') return;
          live ??= openUpstream();
          if (live.readyState === WebSocket.OPEN) live.send(data, { binary });
          else pending.push([data, binary]);
        });
        client.on('close', (code, reason) => {
          if (round) finishRound('client-aborted');
          if (live && live.readyState !== WebSocket.CLOSED) live.close(validCode(code), reason);
        });
        client.on('error', () => live?.terminate());
      })();
    });
  };

  /** The recorded frames answering a response.create (a loop round); undefined when auto mode should go live. A replay miss throws. */
  function recordedFrames(text: string, headers: IncomingMessage['headers'], reader: NonNullable<Awaited<ReturnType<CassetteRegistry['get']>>['reader']>, where: Where): string[] | undefined {
    const { match, canonical } = keys.keyFor('POST', where.path, headers, text, where.cassette, where.sessionId);
    const found = findRecording(reader, match, config.match.onExhausted);
    if (found) {
      stats.hits++;
      stats.served.add(found.id);
      return decodeSse([found.body ?? Buffer.alloc(0)]).map((event) => event.data);
    }
    if (where.mode !== 'replay') return undefined;
    const miss = describeMiss(reader, { match, canonical }, where.cassette, 'POST', `${redactor.path(where.path)} (WebSocket)`);
    countMiss(stats, where.cassette, miss.message);
    observer?.miss(where.sessionId, miss.message);
    logger.error(miss.message);
    throw miss;
  }

  /** Replays the recorded frames for a response.create; false when auto mode should go live instead. */
  function answerFromCassette(text: string, headers: IncomingMessage['headers'], client: WebSocket, reader: NonNullable<Awaited<ReturnType<CassetteRegistry['get']>>['reader']>, where: Where): boolean {
    let frames: string[] | undefined;
    try {
      frames = recordedFrames(text, headers, reader, where);
    } catch (miss) {
      client.send(JSON.stringify({ type: 'error', code: 'cassette_miss', message: (miss as Error).message }));
      return true;
    }
    if (frames === undefined) return false;
    for (const frame of frames) client.send(frame);
    return true;
  }

}

/** A frame as the SSE event it is stored as: its type as the event name, its text as the data, unchanged. */
function frameEvent(text: string): string {
  return `event: ${frameType(text) ?? 'message'}\ndata: ${text}\n\n`;
}

function frameType(text: string): string | undefined {
  // Only the event's type is needed: avoid parsing whole frames on the relay path.
  const match = /"type"\s*:\s*"([^"]+)"/.exec(text.slice(0, 200));
  return match?.[1];
}

/** Close codes a peer may send on (1005/1006 are reserved for "no code"). */
function validCode(code: number): number {
  return code === 1005 || code === 1006 || code < 1000 || code >= 5000 ? 1000 : code;
}
