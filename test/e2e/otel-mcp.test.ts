import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.js';
import { startNotesHttpServer, type NotesHttpServer } from '../support/mcp-http-server.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import {
  decodeRequest,
  startOtlpReceiver,
  type JsonRequest,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../support/otlp-receiver.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const token = 'notes-bearer-otel-0123456789';
const session = 'mcp-run';

/** The model asks for the notes server's `add` (prefixed, as agents name MCP tools), then answers. */
const notesModel = (request: { body: string }) => {
  const body = JSON.parse(request.body) as { messages: { role: string }[] };
  const answered = body.messages.some((message) => message.role === 'tool');
  return {
    kind: 'json' as const,
    body: chatCompletion(
      answered
        ? { text: 'The sum is 5.' }
        : { toolCalls: [{ id: 'call_add', name: 'notes__add', arguments: '{"a":2,"b":3}' }] },
    ),
  };
};

let upstream: ScriptedUpstream;
let notes: NotesHttpServer;
let receiver: OtlpReceiver;
const cassette = join(temporaryFolder(), 'mcp-otel.sqlite');
let live: ReceivedSpan[];

/**
 * One agent run: a chat round that asks for `notes__add`, the MCP client (the official SDK,
 * through the proxy's `/mcp/notes` route, in the same calltape session) initializing and calling
 * `add` and an unrequested `delete_everything` that fails, then the round with the result.
 */
beforeAll(async () => {
  [upstream, notes, receiver] = await Promise.all([
    startScriptedUpstream(notesModel),
    startNotesHttpServer(token),
    startOtlpReceiver(),
  ]);
  const proxy = await startTestProxy(
    upstream.url,
    { mode: 'record', cassette, mcp: { servers: { notes: notes.url } } },
    {
      otlp: {
        url: `${receiver.url}/v1/traces`,
        protocol: 'http/protobuf',
        captureContent: true,
      },
    },
  );
  const headers = { 'x-calltape-session': session };
  const openai = new OpenAI({ apiKey: 'sk-otel-mcp', baseURL: proxy.baseUrl, maxRetries: 0 });
  const tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = [
    {
      type: 'function',
      function: { name: 'notes__add', parameters: { type: 'object', properties: {} } },
    },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'What is 2 + 3?' },
  ];
  const first = await openai.chat.completions.create(
    { model: 'gpt-test', messages, tools },
    { headers },
  );
  const asked = first.choices[0]?.message;
  if (!asked?.tool_calls) throw new Error('no tool call');
  const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp/notes`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const client = new Client({ name: 'otel-agent', version: '0.0.1' });
  await client.connect(transport);
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await client.callTool({ name: 'delete_everything', arguments: {} });
  await transport.terminateSession();
  await client.close();
  messages.push(asked, {
    role: 'tool',
    tool_call_id: 'call_add',
    content: JSON.stringify((sum as { content: unknown }).content),
  });
  await openai.chat.completions.create({ model: 'gpt-test', messages, tools }, { headers });
  await proxy.close();
  live = receiver.spans();
});
afterAll(async () => {
  await Promise.all([upstream.close(), notes.close(), receiver.close()]);
});

/** The MCP-side spans of the session's trace, checked attribute by attribute against the MCP convention. */
function expectMcpSpans(spans: readonly ReceivedSpan[], transportSession: boolean): void {
  const root = spans.find(
    (span) => span.name === 'invoke_agent' && span.attributes['gen_ai.conversation.id'] === session,
  );
  expect(root).toBeDefined();
  const trace = spans.filter((span) => span.traceId === root?.traceId);
  // The MCP tools/call that carried out the model's call is that call's execute_tool span, with the MCP attributes.
  const tool = trace.filter((span) => span.name === 'execute_tool notes__add');
  expect(tool).toHaveLength(1);
  expect(tool[0]).toMatchObject({ kind: 1, parentSpanId: root?.spanId, status: 0 });
  expect(tool[0]?.attributes).toMatchObject({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'notes__add',
    'gen_ai.tool.call.id': 'call_add',
    'mcp.method.name': 'tools/call',
    'jsonrpc.request.id': expect.stringMatching(/^\d+$/) as unknown,
    'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d\d-\d\d$/) as unknown,
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'calltape.mcp.server': 'notes',
    // The model's own argument text, not the MCP request's.
    'gen_ai.tool.call.arguments': '{"a":2,"b":3}',
  });
  expect(trace.some((span) => span.name === 'tools/call add')).toBe(false);
  // A call no model call asked for: its own MCP client span in the session, failed as the convention says.
  const refused = trace.find((span) => span.name === 'tools/call delete_everything');
  expect(refused).toMatchObject({
    kind: 3,
    parentSpanId: root?.spanId,
    status: 2,
    attributes: {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'delete_everything',
      'error.type': 'tool_error',
      'network.transport': 'tcp',
    },
  });
  expect(refused?.attributes['rpc.response.status_code']).toBeUndefined();
  const initialize = trace.find((span) => span.name === 'initialize');
  expect(initialize).toMatchObject({
    kind: 3,
    parentSpanId: root?.spanId,
    attributes: { 'mcp.method.name': 'initialize', 'jsonrpc.request.id': '0' },
  });
  expect(initialize?.attributes['gen_ai.operation.name']).toBeUndefined();
  for (const span of [tool[0], refused])
    if (transportSession) expect(span?.attributes['mcp.session.id']).toMatch(/^[0-9a-f-]{36}$/);
}

describe('MCP calls as the OpenTelemetry MCP spans', () => {
  it('the live proxy joins them to the LLM session: the carried-out call onto its execute_tool span, the rest as MCP client spans', () => {
    expectMcpSpans(live, true);
  });

  it('calltape cassettes export --format otlp writes the recorded MCP exchanges the same way', async () => {
    const file = join(temporaryFolder(), 'mcp.otlp.json');
    const run = await runCliAsync([
      'cassettes',
      'export',
      cassette,
      '--format',
      'otlp',
      '--otlp-capture-content',
      '--out',
      file,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/exported 2 interaction\(s\) and \d+ MCP exchange\(s\)/);
    expectMcpSpans(decodeRequest(JSON.parse(readFileSync(file, 'utf8')) as JsonRequest), true);
  });
});
