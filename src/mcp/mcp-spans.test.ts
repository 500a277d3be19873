import { describe, expect, it } from 'vitest';
import type { Interaction } from '../trace/trace.js';
import { cassetteMcpOperations, mcpSpan, type SpannedExchange } from './mcp-spans.js';

const exchange = (overrides: Partial<SpannedExchange>): SpannedExchange => ({
  id: 'x1',
  sessionId: 'relay',
  sessionGiven: false,
  server: 'files',
  method: 'tools/call',
  subject: 'read',
  params: { name: 'read', arguments: { path: '/a' } },
  result: { content: [{ type: 'text', text: 'hello' }] },
  error: undefined,
  startedAt: 1000,
  totalMs: 12.5,
  mockSet: undefined,
  ...overrides,
});
const off = { content: false };

describe('mcpSpan (OpenTelemetry MCP client span)', () => {
  it('names a tools/call `{mcp.method.name} {gen_ai.tool.name}`, with the execute_tool attributes and the stdio transport as a pipe', () => {
    const span = mcpSpan(exchange({ requestId: '7', transport: 'stdio' }), off);
    expect(span).toMatchObject({
      name: 'tools/call read',
      kind: 'client',
      startMs: 1000,
      endMs: 1012.5,
    });
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read',
      'jsonrpc.request.id': '7',
      'network.transport': 'pipe',
      'calltape.mcp.server': 'files',
      'calltape.mcp.exchange.id': 'x1',
    });
    expect(span.error).toBeUndefined();
  });

  it('keeps a resource URI out of the span name (high cardinality) and names a prompt', () => {
    const read = mcpSpan(exchange({ method: 'resources/read', subject: 'file:///etc/x' }), off);
    expect(read.name).toBe('resources/read');
    expect(read.attributes['mcp.resource.uri']).toBe('file:///etc/x');
    expect(read.attributes['gen_ai.operation.name']).toBeUndefined();
    const prompt = mcpSpan(exchange({ method: 'prompts/get', subject: 'summarise' }), off);
    expect(prompt.name).toBe('prompts/get summarise');
    expect(prompt.attributes['gen_ai.prompt.name']).toBe('summarise');
  });

  it('records a JSON-RPC error as error.type and rpc.response.status_code with its message as the status, and isError as tool_error', () => {
    const failed = mcpSpan(
      exchange({ result: undefined, error: { code: -32602, message: 'bad params' } }),
      { content: true },
    );
    expect(failed.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    });
    expect(failed.error).toBe('bad params');
    expect(failed.attributes['gen_ai.tool.call.result']).toBeUndefined();
    const refused = mcpSpan(exchange({ result: { content: [], isError: true } }), off);
    expect(refused.attributes['error.type']).toBe('tool_error');
    expect(refused.attributes['rpc.response.status_code']).toBeUndefined();
  });

  it('carries arguments and result only when content is opted in', () => {
    expect(mcpSpan(exchange({}), off).attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(mcpSpan(exchange({}), { content: true }).attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"path":"/a"}',
      'gen_ai.tool.call.result': '{"content":[{"type":"text","text":"hello"}]}',
    });
  });
});

describe('cassetteMcpOperations', () => {
  it('joins a tools/call to the model call it carried out, in the model call’s session', () => {
    const interaction = {
      id: 'i1',
      sessionId: 'agent',
      timing: { startedAt: 900, firstByteMs: 1, totalMs: 10 },
      response: {
        output: {
          toolCalls: [
            {
              id: 'call_1',
              index: 0,
              name: 'files__read',
              argumentsRaw: '{"path":"/a"}',
              arguments: { ok: true, value: { path: '/a' } },
              complete: true,
            },
          ],
        },
      },
    } as unknown as Interaction;
    const [joined, alone] = cassetteMcpOperations(
      [interaction],
      [exchange({}), exchange({ id: 'x2', method: 'tools/list', subject: undefined })],
      off,
    );
    expect(joined).toMatchObject({ sessionId: 'agent', sessionGiven: true, callId: 'call_1' });
    expect(alone).toMatchObject({ sessionId: 'relay', sessionGiven: false });
    expect(alone?.carries).toBeUndefined();
  });
});
