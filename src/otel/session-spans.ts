import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { Interaction, ToolCall, ToolDefinition } from '../trace/trace.js';
import type { McpOperation } from './mcp-operation.js';
import {
  agentAttributes,
  agentSpanName,
  chatSpan,
  evaluationAttributes,
  evaluationEventName,
  toolSpan,
  type ContentCapture,
  type Evaluation,
  type SpanAttributes,
  type SpanPlan,
  type ToolOutcome,
} from './gen-ai-spans.js';

/** A tool call the model asked for whose result has not come back yet. */
interface PendingCall {
  readonly call: ToolCall;
  readonly startMs: number;
  readonly definition: ToolDefinition | undefined;
  readonly mocked: boolean;
  readonly outcome: ToolOutcome | undefined;
  /** The MCP tools/call that carried it out, once seen: its span, whose attributes join the tool's. */
  mcp?: SpanPlan;
}

/** One session being traced: its `invoke_agent` span, still open, and its calls awaiting results. */
interface OpenSession {
  readonly root: Span;
  readonly context: Context;
  readonly pending: Map<string, PendingCall>;
  /** Calls without an id cannot be matched to a result: they end with the session. */
  readonly unmatched: PendingCall[];
  lastMs: number;
}

/** Who the session spans are for: the agent's name and calltape's attributes for every root. */
export interface SessionSpanOptions {
  readonly capture: ContentCapture;
  /** `gen_ai.agent.name` (e.g. the suite's name), when there is one. */
  readonly agentName?: string;
  /** Most sessions held open at once; the least recently active is ended beyond it. */
  readonly maxOpen?: number;
}

/**
 * Writes a stream of round trips as GenAI spans through an OTel tracer: each session an
 * `invoke_agent` span (opened by its first round, ended when the session ends), each round a
 * `chat` child, each tool call an `execute_tool` child spanning the time the agent took to send
 * its result back. Rounds of a session must arrive in order; sessions may interleave.
 */
export class SessionSpans {
  private readonly open = new Map<string, OpenSession>();
  private readonly maxOpen: number;

  constructor(
    private readonly tracer: Tracer,
    private readonly options: SessionSpanOptions,
  ) {
    this.maxOpen = options.maxOpen ?? 10_000;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.open.size;
  }

  /** One round trip: ends the tool spans its request answers, writes its chat span, opens spans for its calls. */
  interaction(interaction: Interaction, rootAttributes: SpanAttributes = {}): void {
    const session = this.session(interaction.sessionId, interaction, rootAttributes);
    const startMs = interaction.timing.startedAt;
    for (const message of interaction.request.messages) {
      if (message.role !== 'tool' || message.toolCallId === undefined) continue;
      const pending = session.pending.get(message.toolCallId);
      if (!pending) continue;
      session.pending.delete(message.toolCallId);
      this.writeTool(
        {
          ...pending,
          outcome: pending.outcome ?? { content: message.text, isError: message.isError === true },
        },
        startMs,
        session.context,
      );
    }
    const chat = chatSpan(interaction, this.options.capture);
    this.write(chat, session.context);
    session.lastMs = Math.max(session.lastMs, chat.endMs);
    const definitions = new Map(interaction.request.tools.map((tool) => [tool.name, tool]));
    const mocked = new Map((interaction.mocked ?? []).map((result) => [result.callId, result]));
    for (const call of interaction.response?.output.toolCalls ?? []) {
      const answer = call.id === undefined ? undefined : mocked.get(call.id);
      const pending: PendingCall = {
        call,
        startMs: chat.endMs,
        definition: definitions.get(call.name),
        mocked: answer !== undefined,
        outcome: answer && { content: answer.content, isError: answer.isError },
      };
      if (call.id === undefined) session.unmatched.push(pending);
      else session.pending.set(call.id, pending);
    }
  }

  /** One MCP exchange: onto the model call it carried out, else a span in its session (or a root). */
  mcp(operation: McpOperation): void {
    const session = operation.sessionGiven ? this.open.get(operation.sessionId) : undefined;
    const pending = this.carried(operation, session);
    if (pending) pending.mcp = operation.span;
    else this.write(operation.span, session?.context ?? ROOT_CONTEXT);
    if (session) session.lastMs = Math.max(session.lastMs, operation.span.endMs);
  }

  /** Records an evaluation on the session's `invoke_agent` span (the convention's fallback: the evaluated chat span has ended; `gen_ai.response.id` names it). */
  evaluate(sessionId: string, evaluation: Evaluation, atMs: number): void {
    const session = this.open.get(sessionId);
    if (!session) return;
    session.root.addEvent(evaluationEventName, evaluationAttributes(evaluation), atMs);
  }

  /** Sets attributes on an open session's span (e.g. a test case's verdict). */
  annotate(sessionId: string, attributes: SpanAttributes): void {
    this.open.get(sessionId)?.root.setAttributes(attributes);
  }

  /** Whether this session is open (has had a round and not ended). */
  has(sessionId: string): boolean {
    return this.open.has(sessionId);
  }

  /** Ends a session: calls whose results never came back end at its last activity, then the session. */
  end(sessionId: string, error?: string): void {
    const session = this.open.get(sessionId);
    if (!session) return;
    this.open.delete(sessionId);
    for (const pending of [...session.pending.values(), ...session.unmatched])
      this.writeTool(pending, session.lastMs, session.context);
    if (error !== undefined) session.root.setStatus({ code: SpanStatusCode.ERROR, message: error });
    session.root.end(session.lastMs);
  }

  /** Ends every session quiet since before `beforeMs` (a live proxy never learns that a session is over). */
  endIdle(beforeMs: number): void {
    for (const [id, session] of this.open) if (session.lastMs < beforeMs) this.end(id);
  }

  /** Ends every open session (shutdown). */
  endAll(): void {
    for (const id of [...this.open.keys()]) this.end(id);
  }

  private session(
    sessionId: string,
    first: Interaction,
    rootAttributes: SpanAttributes,
  ): OpenSession {
    const existing = this.open.get(sessionId);
    if (existing) {
      // Most recently active last, so the first entry is the one to end when over the bound.
      this.open.delete(sessionId);
      this.open.set(sessionId, existing);
      return existing;
    }
    if (this.open.size >= this.maxOpen) {
      const oldest = this.open.keys().next();
      if (!oldest.done) this.end(oldest.value);
    }
    const extra =
      this.options.agentName === undefined
        ? rootAttributes
        : { ...rootAttributes, 'gen_ai.agent.name': this.options.agentName };
    const root = this.tracer.startSpan(
      agentSpanName(this.options.agentName),
      {
        kind: SpanKind.INTERNAL,
        startTime: first.timing.startedAt,
        attributes: agentAttributes(sessionId, first.provider, extra, first.path),
      },
      ROOT_CONTEXT,
    );
    const session: OpenSession = {
      root,
      context: trace.setSpan(ROOT_CONTEXT, root),
      pending: new Map(),
      unmatched: [],
      lastMs: first.timing.startedAt,
    };
    this.open.set(sessionId, session);
    return session;
  }

  /** The pending model call an MCP tools/call carried out, if any (each is claimed once). */
  private carried(
    operation: McpOperation,
    session: OpenSession | undefined,
  ): PendingCall | undefined {
    if (operation.callId === null) return undefined;
    if (operation.callId !== undefined) {
      const pending = session?.pending.get(operation.callId);
      return pending?.mcp === undefined ? pending : undefined;
    }
    const carries = operation.carries;
    if (!carries) return undefined;
    // Live, without a shared session id: the most recently active session with a matching call.
    const candidates = session ? [session] : [...this.open.values()].reverse();
    for (const open of candidates)
      for (const pending of open.pending.values())
        if (pending.mcp === undefined && carries(pending.call)) return pending;
    return undefined;
  }

  private writeTool(pending: PendingCall, endMs: number, parent: Context): void {
    const plan = toolSpan(pending.call, { ...pending, endMs }, this.options.capture);
    const mcp = pending.mcp;
    if (!mcp) return this.write(plan, parent);
    const own = new Set(['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']);
    const attributes = Object.fromEntries(
      Object.entries(mcp.attributes).filter(([key]) => !own.has(key)),
    );
    const error = plan.error ?? mcp.error;
    this.write(
      {
        ...plan,
        attributes: { ...attributes, ...plan.attributes },
        ...(error === undefined ? {} : { error }),
      },
      parent,
    );
  }

  private write(plan: SpanPlan, parent: Context): void {
    const span = this.tracer.startSpan(
      plan.name,
      {
        kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: plan.startMs,
        attributes: plan.attributes,
      },
      parent,
    );
    if (plan.error !== undefined)
      span.setStatus({ code: SpanStatusCode.ERROR, message: plan.error });
    span.end(plan.endMs);
  }
}
