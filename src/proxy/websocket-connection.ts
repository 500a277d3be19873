import type { IncomingHttpHeaders } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import type { CassetteReader } from '../cassette/sqlite/cassette-reader.js';
import type { MatchKey } from '../cassette/match-key.js';
import type { LoopRound } from '../mocks/tool-loop.js';
import type { ProviderAdapter, ResponseEnding } from '../providers/provider-adapter.js';
import { loopMocks, type CapturePipeline, type FinishedRound } from './capture-pipeline.js';
import type { Logger } from '../logger.js';
import { upstreamOfRecording } from './replay-lookup.js';
import type { Where } from './route-types.js';
import { timeOrderedId } from '../cassette/time-ordered-id.js';
import type { CalltapeError } from '../errors.js';
import { CaptureBudget, heldAnswerTooLarge } from './guard/capture-budget.js';
import {
  endsRound,
  frameEvent,
  frameModel,
  frameType,
  storedFrames,
  validCode,
} from './websocket-frames.js';
import { websocketErrorFrame } from './websocket-error-frame.js';

export interface WebSocketConnectionOptions {
  readonly client: WebSocket;
  readonly adapter: ProviderAdapter;
  readonly where: Where;
  /** The agent's handshake headers without calltape's own: keyed, stored and (minus the handshake) sent upstream. */
  readonly headers: IncomingHttpHeaders;
  readonly reader: CassetteReader | undefined;
  readonly pipeline: CapturePipeline;
  readonly logger: Logger;
  /** Most frame bytes kept per round (`limits.maxResponseBytes`); past it the agent still gets every frame, capture stops. */
  readonly maxCaptureBytes: number;
  /** Opens the upstream socket (on the first frame that must go there). */
  connectUpstream(): WebSocket;
}

/** A round trip being captured: the agent's `response.create` and the server frames since. */
interface OpenRound {
  readonly id: string;
  readonly body: Buffer;
  readonly startedAt: number;
  readonly startedPerf: number;
  readonly match: MatchKey | undefined;
  readonly frames: Buffer[];
  readonly times: number[];
  readonly budget: CaptureBudget;
}

/** A loop round answered over the socket: the frames it got, besides what the tool loop needs. */
export type WebSocketLoopRound = LoopRound & { readonly frames: readonly string[] };

/**
 * One relayed Responses WebSocket connection, with its own state: frames go both ways unchanged
 * and in order, and each `response.create` with the server events up to its terminal event is
 * one round trip through the capture pipeline — decided (replayed, missed or forwarded) when it
 * starts, finished when it ends. Under mocks, turns go through `loopRound` instead.
 */
export class WebSocketConnection {
  private upstream: WebSocket | undefined;
  private readonly pending: [RawData, boolean][] = [];
  private round: OpenRound | undefined;
  /** Under mocks: where server frames go while a loop round waits for its whole turn. */
  private collector: ((text: string) => void) | undefined;

  constructor(private readonly options: WebSocketConnectionOptions) {
    const { client } = options;
    client.on('close', (code, reason) => {
      if (this.round) this.endRound('client-aborted');
      if (this.upstream && this.upstream.readyState !== WebSocket.CLOSED)
        this.upstream.close(validCode(code), reason);
    });
    client.on('error', () => this.upstream?.terminate());
  }

  /** A frame from the agent, relayed (a `response.create` starts a round, or is answered from the cassette). */
  relay(data: RawData, binary: boolean): void {
    const text = binary ? undefined : data.toString();
    if (text !== undefined && frameType(text) === 'response.create') {
      if (this.round) this.endRound('upstream-failed');
      const decision = this.decide(text);
      if (decision.kind === 'miss')
        return this.options.client.send(websocketErrorFrame(this.options.adapter, decision.error));
      if (decision.kind === 'hit') {
        for (const frame of storedFrames(decision.recording.body)) this.options.client.send(frame);
        return this.options.pipeline.finishRound({
          ...this.finished(Buffer.from(text), timeOrderedId(), Date.now()),
          upstream: upstreamOfRecording(decision.recording),
          source: 'recording',
        });
      }
      this.round = this.openRound(text, decision.match);
    }
    // Replay never touches the network: what the cassette cannot answer is dropped.
    if (this.options.where.mode !== 'replay') this.send(data, binary);
  }

  /** One tool-loop round: the request frame answered from the cassette, or sent upstream and its frames collected up to the terminal event. */
  async loopRound(frame: string): Promise<WebSocketLoopRound> {
    const decision = this.decide(frame);
    if (decision.kind === 'miss') throw decision.error;
    let frames: string[];
    let finish: (mocks: FinishedRound['mocks']) => void;
    if (decision.kind === 'hit') {
      frames = storedFrames(decision.recording.body);
      const round = {
        ...this.finished(Buffer.from(frame), timeOrderedId(), Date.now()),
        upstream: upstreamOfRecording(decision.recording),
        source: 'recording' as const,
      };
      finish = (mocks) => this.options.pipeline.finishRound({ ...round, mocks });
    } else {
      const open = this.openRound(frame, decision.match);
      frames = await new Promise<string[]>((resolve, reject) => {
        const seen: string[] = [];
        this.collector = (text) => {
          seen.push(text);
          this.capture(open, text);
          if (open.budget.truncated !== undefined) return reject(this.cutUpstream(open));
          if (!endsRound(text)) return;
          this.collector = undefined;
          resolve(seen);
        };
        this.send(Buffer.from(frame), false);
      });
      finish = (mocks) => this.finish(open, 'finished', mocks);
    }
    const sse = frames.map(frameEvent).join('');
    const parsed = this.options.adapter.parseResponse({
      httpStatus: 200,
      contentType: 'text/event-stream',
      body: [Buffer.from(sse)],
      ending: 'finished',
    });
    return {
      status: 200,
      body: sse,
      response: parsed.response,
      complete: parsed.status === 'complete',
      frames,
      record: (outcome) => finish(loopMocks(outcome, undefined, this.options.adapter)),
    };
  }

  /**
   * A held turn outgrew `limits.maxResponseBytes`: its frames cannot be held, nor (hidden as they
   * are) relayed, so the upstream socket goes and the round is recorded as cut off. The agent's
   * socket stays; its next frame opens a fresh upstream connection.
   */
  private cutUpstream(round: OpenRound): CalltapeError {
    this.collector = undefined;
    const upstream = this.upstream;
    this.upstream = undefined;
    this.pending.length = 0;
    upstream
      ?.removeAllListeners()
      .on('error', () => undefined)
      .terminate();
    const error = heldAnswerTooLarge('limits.maxResponseBytes', this.options.maxCaptureBytes);
    this.finish(round, 'upstream-failed', undefined, error);
    return error;
  }

  private decide(text: string): ReturnType<CapturePipeline['decide']> {
    const { adapter, where, headers, pipeline } = this.options;
    return pipeline.decide(
      {
        adapter,
        where,
        method: 'POST',
        headers,
        text,
        label: `${pipeline.redactedPath(where.path)} (WebSocket)`,
      },
      this.options.reader,
    );
  }

  private openRound(text: string, match: MatchKey | undefined): OpenRound {
    return {
      id: timeOrderedId(),
      body: Buffer.from(text),
      startedAt: Date.now(),
      startedPerf: performance.now(),
      match,
      frames: [],
      times: [],
      budget: new CaptureBudget(this.options.maxCaptureBytes),
    };
  }

  private send(data: RawData, binary: boolean): void {
    this.upstream ??= this.openUpstream();
    if (this.upstream.readyState === WebSocket.OPEN) this.upstream.send(data, { binary });
    else this.pending.push([data, binary]);
  }

  private openUpstream(): WebSocket {
    const { client, logger } = this.options;
    const upstream = this.options.connectUpstream();
    upstream.on('open', () => {
      for (const [data, binary] of this.pending.splice(0)) upstream.send(data, { binary });
    });
    upstream.on('message', (data, binary) => {
      // Under mocks a turn is held until the tool loop knows what the agent may see.
      if (this.collector && !binary) return this.collector(data.toString());
      client.send(data, { binary });
      if (binary || !this.round) return;
      const text = data.toString();
      this.capture(this.round, text);
      if (endsRound(text)) this.endRound('finished');
    });
    upstream.on('close', (code, reason) => client.close(validCode(code), reason));
    upstream.on('error', (error) => {
      logger.error(
        `calltape: the upstream WebSocket for ${this.options.pipeline.redactedPath(this.options.where.path)} failed: ${error.message}`,
      );
      client.close(1011, 'upstream failed');
    });
    return upstream;
  }

  private capture(round: OpenRound, text: string): void {
    const frame = Buffer.from(frameEvent(text));
    if (!round.budget.take(frame.length)) return;
    round.frames.push(frame);
    round.times.push(performance.now() - round.startedPerf);
  }

  private endRound(ending: ResponseEnding): void {
    const done = this.round;
    this.round = undefined;
    if (done) this.finish(done, ending, undefined);
  }

  private finish(
    round: OpenRound,
    ending: ResponseEnding,
    mocks: FinishedRound['mocks'],
    proxyError?: CalltapeError,
  ): void {
    const upstream = {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-calltape-transport': 'websocket' },
      chunks: round.frames,
      chunkTimes: round.times,
      firstByteMs: round.times[0],
      totalMs: round.times.at(-1) ?? 0,
      ending,
      errorMessage: undefined,
      truncated: proxyError?.message ?? round.budget.truncated,
    };
    this.options.pipeline.finishRound({
      ...this.finished(round.body, round.id, round.startedAt),
      upstream,
      match: round.match,
      proxyError,
      ...(mocks ? { mocks } : {}),
    });
  }

  /** A round of this connection as the pipeline's sinks take it. */
  private finished(body: Buffer, id: string, startedAt: number): FinishedRound {
    const { adapter, where, headers } = this.options;
    return {
      adapter,
      where,
      request: { id, method: 'POST', headers, body, startedAt },
      upstream: undefined,
      match: undefined,
      source: 'upstream',
      model: frameModel(body),
    };
  }
}
