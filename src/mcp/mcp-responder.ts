import { requestKey } from '../cassette/request-key.js';
import type { Redactor } from '../cassette/redact.js';
import { OrdinalCounter } from '../cassette/match-key.js';
import { timeOrderedId } from '../cassette/time-ordered-id.js';
import type { JsonValue } from '../trace/trace.js';
import { chooseMcpAnswer } from './choose-mcp-answer.js';
import { MockSessionStates } from '../mocks/mock-session-states.js';
import { diffMcpAnswers, type ComparedAnswer } from './diff-mcp-answers.js';
import { asObject, type JsonRpcError, type JsonRpcId } from './json-rpc.js';
import type { McpExchange, McpTransport } from './mcp-exchange.js';
import type { McpServerMockSet } from './mcp-mock-types.js';
import {
  canonicalMcpRequest,
  canonicalMcpText,
  isRecordedMethod,
  mcpSubject,
} from './mcp-request.js';
import type { McpStore } from './mcp-store.js';
import { findLeakedMcpSecret } from './find-leaked-mcp-secret.js';
import { explainMcpMiss } from './nearest-mcp-recording.js';
import { redactMcpError, redactMcpParams, redactMcpResult } from './redact-mcp.js';
import { progressTokenOf } from './replay-interim.js';

/** What answers a request the server does not see (a replayed one with what the server sent before its answer). */
export type McpAnswer = ({ readonly result: JsonValue } | { readonly error: JsonRpcError }) & {
  readonly during?: readonly JsonValue[];
};

/** A live answer compared with its recording (diff mode). */
export interface McpDiff {
  /** e.g. `tools/call add on notes`. */
  readonly request: string;
  /** The recording compared with; undefined when none matched. */
  readonly recordingId: string | undefined;
  /** One line per difference; empty when the answers are the same. */
  readonly lines: readonly string[];
}

/** JSON-RPC error code of a replay miss (implementation-defined server error range). */
export const missErrorCode = -32001;

/** A request in flight: what is recorded once its answer arrives. */
export interface PendingMcpRequest {
  readonly method: string;
  readonly params: JsonValue | undefined;
  readonly key: string;
  readonly canonical: string;
  readonly ordinal: number;
  readonly startedAt: number;
  readonly started: number;
  /** The JSON-RPC id, as text. */
  readonly requestId?: string;
  /** The client's `_meta.progressToken`: the server's progress notifications for this request carry it. */
  readonly progressToken: JsonRpcId | undefined;
  /** What the server sent for this request before answering (progress, requests to the client), as relayed. */
  readonly during: JsonValue[];
}

export interface McpResponderOptions {
  readonly server: string;
  readonly session: string;
  readonly sessionGiven: boolean;
  /**
   * The rules every stored or exported exchange passes; the session's credentials
   * (`addCredentials`) are added to them.
   */
  readonly redactor: Redactor;
  readonly mocks: McpServerMockSet;
  /** Where recordings are read (replay) — absent in record and passthrough. */
  readonly reader: McpStore | undefined;
  /** Where exchanges are written (record) — absent in replay and passthrough. */
  readonly writer: McpStore | undefined;
  readonly clock?: () => number;
  /**
   * Diff mode: each live answer is compared with its recording (same request, same ordinal)
   * instead of being stored; told the differences (none: the same).
   */
  readonly onDiff?: (diff: McpDiff) => void;
  /** Told of each replay miss instead of keeping it in `misses` (a long-running proxy must not collect them). */
  readonly onMiss?: (message: string) => void;
  /** How the client reaches the server, kept with each exchange. */
  readonly transport?: McpTransport;
  /** Told of every exchange answered — recorded, relayed, mocked or replayed — after redaction (the OTel export). */
  readonly onExchange?: (exchange: McpExchange) => void;
  /**
   * Told of an exchange neither stored nor exported because a credential of its session is still
   * in it after redaction (the message names the method and where, never the value).
   */
  readonly onRefused?: (message: string) => void;
}

/**
 * The relay's decisions about one server's requests: keying (after redaction), mocks, replay
 * from the cassette, and recording answers. Identical requests are told apart by an ordinal,
 * so the Nth call is answered by the Nth recording of it.
 */
export class McpResponder {
  private readonly ordinals = new OrdinalCounter();
  private readonly clock: () => number;
  private mcpSessionId: string | undefined;
  /** The mocks' state: one responder answers one session, so it holds that session's only. */
  private state: MockSessionStates | undefined;
  private redactor: Redactor;
  /** Every credential sent in this session so far, by the client or the server. */
  private readonly credentials = new Set<string>();
  private protocolVersion: string | undefined;
  /** Replay misses, for the exit code and the summary. */
  readonly misses: string[] = [];

  constructor(private readonly options: McpResponderOptions) {
    this.clock = options.clock ?? Date.now;
    this.redactor = options.redactor;
  }

  /**
   * Credentials sent in this session (a request's Authorization, an OAuth refresh, a rotated
   * key, a cookie the server set): redacted from everything stored or exported from now on,
   * and refused by the last check before either. A session keeps all of them: a server may
   * echo an old token after a new one arrived.
   */
  addCredentials(values: readonly string[]): void {
    const before = this.credentials.size;
    for (const value of values) if (value.length > 0) this.credentials.add(value);
    if (this.credentials.size !== before)
      this.redactor = this.options.redactor.withSecrets([...this.credentials]);
  }

  /** The Streamable HTTP session these requests belong to, once the server (or calltape) issued its id. */
  bindSession(mcpSessionId: string): void {
    this.mcpSessionId = mcpSessionId;
  }

  /** Starts tracking a request; undefined for methods that are relayed only (ping, logging…). */
  begin(
    method: string,
    params: JsonValue | undefined,
    id?: JsonRpcId,
  ): PendingMcpRequest | undefined {
    if (!isRecordedMethod(method)) return undefined;
    if (method === 'initialize') {
      const version = asObject(params)?.['protocolVersion'];
      if (typeof version === 'string') this.protocolVersion = version;
    }
    const redacted = redactMcpParams(params, this.redactor);
    const canonical = canonicalMcpText(canonicalMcpRequest(method, redacted));
    const key = requestKey(canonical);
    return {
      method,
      params: redacted,
      key,
      canonical,
      ordinal: this.ordinals.next(this.options.server, key),
      startedAt: this.clock(),
      started: performance.now(),
      ...(id === undefined ? {} : { requestId: String(id) }),
      progressToken: progressTokenOf(params),
      during: [],
    };
  }

  /**
   * The answer to a request when no server is there (replay, or a mocks file standing in for
   * the server): a mock, else the recording, else a miss error. Housekeeping a server answers
   * with an empty result; any other unrecorded method is not known.
   */
  answerOffline(method: string, params: JsonValue | undefined, id: JsonRpcId): McpAnswer {
    const pending = this.begin(method, params, id);
    if (pending) return this.mock(pending, id, params) ?? this.replayed(pending, params);
    if (method === 'ping' || method === 'logging/setLevel') return { result: {} };
    return {
      error: {
        code: -32601,
        message: `calltape replay: method ${method} is not answered without the server`,
      },
    };
  }

  /** A mock's answer to a tools/call, when the tool is mocked. */
  mock(
    pending: PendingMcpRequest,
    id: JsonRpcId,
    params: JsonValue | undefined,
  ): McpAnswer | undefined {
    if (pending.method !== 'tools/call') return undefined;
    const call = asObject(params);
    const name = call?.['name'];
    if (typeof name !== 'string') return undefined;
    const entry = this.options.mocks.mocks.get(name);
    if (!entry) return undefined;
    this.state ??= new MockSessionStates(this.options.mocks.state, 1);
    const chosen = chooseMcpAnswer(
      entry.spec,
      { name, id: String(id), arguments: asObject(call?.['arguments']) ?? {} },
      this.state.read(''),
    );
    const refused = this.state.apply('', chosen.changes);
    const result =
      refused === undefined
        ? chosen.result
        : { content: [{ type: 'text', text: `calltape mock ${name}: ${refused}` }], isError: true };
    this.record(pending, { result }, entry.set);
    return { result };
  }

  /** A replayed answer, told to `onExchange` like a recorded one (never written: replay writes nothing). */
  private replayed(pending: PendingMcpRequest, params: JsonValue | undefined): McpAnswer {
    const answer = this.replay(pending, params);
    this.emit(this.exchange(pending, answer, undefined), false);
    return answer;
  }

  /** The answer without the server: the cassette's recording, else what the mocks file declares, else a miss error. */
  replay(pending: PendingMcpRequest, params: JsonValue | undefined): McpAnswer {
    const { server, session, reader, mocks } = this.options;
    const recording = reader?.find(server, pending.key, pending.ordinal, session);
    if (recording?.error) return { error: recording.error, during: recording.during };
    if (recording?.result !== undefined)
      return { result: recording.result, during: recording.during };
    const declared = mocks.tools !== undefined || mocks.mocks.size > 0;
    if (pending.method === 'initialize' && declared) {
      const requested = asObject(params)?.['protocolVersion'];
      return {
        result: {
          protocolVersion: typeof requested === 'string' ? requested : '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: server, version: 'calltape-mock' },
        },
      };
    }
    if (pending.method === 'tools/list' && mocks.tools)
      return { result: { tools: [...mocks.tools] } };
    const requested = canonicalMcpRequest(pending.method, pending.params);
    const miss = explainMcpMiss(
      server,
      requested,
      reader?.count(server, pending.key) ?? 0,
      reader?.candidates(server, pending.method) ?? [],
      reader?.servers() ?? [],
    );
    if (this.options.onMiss) this.options.onMiss(miss.message);
    else this.misses.push(miss.message);
    return {
      error: {
        code: missErrorCode,
        message: miss.message,
        data: {
          calltape: 'CASSETTE_MISS',
          server,
          ...(miss.nearest ? { nearest: miss.nearest } : {}),
          ...(miss.field ? { field: miss.field } : {}),
        },
      },
    };
  }

  /** Stores an exchange (record mode), or in diff mode compares it; results pass the same redaction as params. */
  record(
    pending: PendingMcpRequest,
    answer: { readonly result?: JsonValue | undefined; readonly error?: JsonRpcError | undefined },
    mockSet?: string,
  ): void {
    if (this.options.onDiff) return this.compare(pending, answer, this.options.onDiff);
    const { writer, onExchange } = this.options;
    if (!writer && !onExchange) return;
    this.emit(this.exchange(pending, answer, mockSet), true);
  }

  /**
   * The last check before the cassette and the OTel export: an exchange that still holds a
   * credential of its session (redaction missed it) goes to neither.
   */
  private emit(exchange: McpExchange, store: boolean): void {
    const leak = findLeakedMcpSecret(exchange, this.credentials);
    if (leak !== undefined) {
      this.options.onRefused?.(
        `the ${exchange.method} exchange of MCP server ${exchange.server} was not recorded or exported: a credential sent in its session is still in its ${leak} after redaction`,
      );
      return;
    }
    if (store) this.options.writer?.append(exchange);
    this.options.onExchange?.(exchange);
  }

  private exchange(
    pending: PendingMcpRequest,
    answer: { readonly result?: JsonValue | undefined; readonly error?: JsonRpcError | undefined },
    mockSet: string | undefined,
  ): McpExchange {
    return {
      id: timeOrderedId(pending.startedAt),
      sessionId: this.options.session,
      sessionGiven: this.options.sessionGiven,
      server: this.options.server,
      method: pending.method,
      subject: mcpSubject(pending.method, pending.params),
      params: pending.params,
      result: redactMcpResult(answer.result, this.redactor),
      error: answer.error ? redactMcpError(answer.error, this.redactor) : undefined,
      key: pending.key,
      canonical: pending.canonical,
      ordinal: pending.ordinal,
      startedAt: pending.startedAt,
      totalMs: performance.now() - pending.started,
      mockSet,
      ...(pending.requestId === undefined ? {} : { requestId: pending.requestId }),
      ...(this.options.transport === undefined ? {} : { transport: this.options.transport }),
      ...(this.mcpSessionId === undefined ? {} : { mcpSessionId: this.mcpSessionId }),
      ...(this.protocolVersion === undefined ? {} : { protocolVersion: this.protocolVersion }),
      during: pending.during.map((message) => redactMcpParams(message, this.redactor) ?? null),
    };
  }

  private compare(
    pending: PendingMcpRequest,
    answer: ComparedAnswer,
    onDiff: (diff: McpDiff) => void,
  ): void {
    const { server, session, reader } = this.options;
    const { redactor } = this;
    const subject = mcpSubject(pending.method, pending.params);
    const request = `${pending.method}${subject === undefined ? '' : ` ${subject}`} on ${server}`;
    const recording = reader?.find(server, pending.key, pending.ordinal, session);
    if (!recording)
      return onDiff({
        request,
        recordingId: undefined,
        lines: ['no recording matches this request'],
      });
    const live = {
      result: redactMcpResult(answer.result, redactor),
      error: answer.error ? redactMcpError(answer.error, redactor) : undefined,
    };
    onDiff({ request, recordingId: recording.id, lines: diffMcpAnswers(recording, live) });
  }
}
