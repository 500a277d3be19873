import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { Interaction, Message, ToolCall } from '../trace/trace.js';
import type { McpOperation } from './mcp-operation.js';
import { SessionSpans } from './session-spans.js';

const call = (id: string | undefined, name: string): ToolCall => ({
  id,
  index: 0,
  name,
  argumentsRaw: '{}',
  arguments: { ok: true, value: {} },
  complete: true,
});
const toolResult = (id: string, text: string): Message => ({
  role: 'tool',
  text,
  toolCalls: [],
  toolCallId: id,
  isError: undefined,
});

/** Epoch milliseconds (the SDK reads small numbers as performance.now() times). */
const t0 = 1_764_460_800_000;

function round(
  id: string,
  sessionId: string,
  startedAt: number,
  messages: Message[],
  calls: ToolCall[],
): Interaction {
  return {
    id,
    sessionId,
    provider: 'openai-chat',
    method: 'POST',
    path: '/v1/chat/completions',
    request: { model: 'm', stream: false, messages, tools: [], toolChoice: undefined },
    response: {
      id: undefined,
      model: 'm',
      output: {
        text: '',
        refusal: undefined,
        toolCalls: calls,
        finishReason: { unified: 'stop', raw: 'stop' },
      },
      alternatives: [],
      usage: undefined,
    },
    status: 'complete',
    httpStatus: 200,
    error: undefined,
    timing: { startedAt: t0 + startedAt, firstByteMs: 1, totalMs: 10 },
  };
}

function tracing(maxOpen?: number): {
  spans: SessionSpans;
  finished: () => {
    name: string;
    parent: string | undefined;
    id: string;
    start: number;
    end: number;
  }[];
} {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spans = new SessionSpans(provider.getTracer('test'), {
    capture: { content: false },
    ...(maxOpen === undefined ? {} : { maxOpen }),
  });
  const ms = (time: [number, number]): number => time[0] * 1000 + Math.round(time[1] / 1e6) - t0;
  return {
    spans,
    finished: () =>
      exporter.getFinishedSpans().map((span) => ({
        name: span.name,
        parent: span.parentSpanContext?.spanId,
        id: span.spanContext().spanId,
        start: ms(span.startTime),
        end: ms(span.endTime),
      })),
  };
}

describe('session spans', () => {
  it('ends each parallel call when its result comes back, and a call without an id with the session', () => {
    const { spans, finished } = tracing();
    spans.interaction(
      round('r1', 's', 1000, [], [call('a', 'search'), call('b', 'fetch'), call(undefined, 'log')]),
    );
    spans.interaction(round('r2', 's', 1100, [toolResult('a', 'x')], []));
    expect(finished().map((span) => span.name)).toEqual([
      'chat m',
      'execute_tool search',
      'chat m',
    ]);
    spans.interaction(round('r3', 's', 1300, [toolResult('b', 'y')], []));
    spans.end('s');
    const all = finished();
    const root = all.find((span) => span.name === 'invoke_agent');
    expect(root).toMatchObject({ start: 1000, end: 1310, parent: undefined });
    for (const span of all.filter((item) => item !== root)) expect(span.parent).toBe(root?.id);
    expect(all.find((span) => span.name === 'execute_tool search')).toMatchObject({
      start: 1010,
      end: 1100,
    });
    expect(all.find((span) => span.name === 'execute_tool fetch')).toMatchObject({
      start: 1010,
      end: 1300,
    });
    expect(all.find((span) => span.name === 'execute_tool log')).toMatchObject({
      start: 1010,
      end: 1310,
    });
  });

  it('keeps at most maxOpen sessions open, ending the least recently active', () => {
    const { spans, finished } = tracing(2);
    spans.interaction(round('a1', 'a', 1, [], []));
    spans.interaction(round('b1', 'b', 2, [], []));
    spans.interaction(round('a2', 'a', 3, [], []));
    spans.interaction(round('c1', 'c', 4, [], []));
    expect(spans.has('b')).toBe(false);
    expect(spans.has('a') && spans.has('c')).toBe(true);
    expect(finished().filter((span) => span.name === 'invoke_agent')).toHaveLength(1);
  });

  it('ends sessions quiet since before a time, and every one at shutdown', () => {
    const { spans } = tracing();
    spans.interaction(round('a1', 'a', 100, [], []));
    spans.interaction(round('b1', 'b', 5000, [], []));
    spans.endIdle(t0 + 1000);
    expect([spans.has('a'), spans.has('b')]).toEqual([false, true]);
    spans.endAll();
    expect(spans.size).toBe(0);
  });
});

describe('session spans: MCP operations', () => {
  const operation = (
    overrides: Partial<McpOperation> & { readonly name?: string } = {},
  ): McpOperation => ({
    sessionId: 'relay-1',
    sessionGiven: false,
    span: {
      name: overrides.name ?? 'tools/call search',
      kind: 'client',
      startMs: t0 + 1020,
      endMs: t0 + 1030,
      attributes: { 'mcp.method.name': 'tools/call', 'jsonrpc.request.id': '3' },
    },
    ...overrides,
  });

  it('without a shared session id, puts a tools/call onto the open model call it carried out (once), the next on its own', () => {
    const { spans, finished } = tracing();
    spans.interaction(round('r1', 's', 1000, [], [call('a', 'search')]));
    const carries = (model: ToolCall) => model.name === 'search';
    spans.mcp(operation({ carries }));
    spans.mcp(operation({ carries }));
    spans.interaction(round('r2', 's', 1100, [toolResult('a', 'x')], []));
    const all = finished();
    expect(all.map((span) => span.name)).toEqual([
      'chat m',
      'tools/call search',
      'execute_tool search',
      'chat m',
    ]);
    // The second carried nothing left to carry out: a root of its own, not in the session.
    expect(all.find((span) => span.name === 'tools/call search')?.parent).toBeUndefined();
  });

  it('writes an exchange of a traced session as a child of its invoke_agent span, and one the caller joined to no call too', () => {
    const { spans, finished } = tracing();
    spans.interaction(round('r1', 's', 1000, [], [call('a', 'search')]));
    spans.mcp(operation({ name: 'initialize', sessionId: 's', sessionGiven: true }));
    spans.mcp(operation({ sessionId: 's', sessionGiven: true, callId: null, carries: () => true }));
    spans.end('s');
    const all = finished();
    const root = all.find((span) => span.name === 'invoke_agent');
    expect(all.find((span) => span.name === 'initialize')?.parent).toBe(root?.id);
    expect(all.find((span) => span.name === 'tools/call search')?.parent).toBe(root?.id);
    // callId null: the caller found no model call, so the pending one is not claimed.
    expect(all.filter((span) => span.name === 'execute_tool search')).toHaveLength(1);
  });
});
