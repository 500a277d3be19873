/**
 * The tools `@modelcontextprotocol/conformance`'s server scenarios call, written from what each
 * scenario asks of a server (its description and checks), on the official SDK's low-level
 * `Server`: the JSON Schema 2020-12 tool needs an `inputSchema` passed through as written.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  type CallToolResult,
  type ElicitRequestFormParams,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** A 1×1 red PNG. */
export const redPixelPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV header with no samples (8 kHz, mono, 16 bit). */
const silentWav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Arguments = Readonly<Record<string, unknown>>;

/** One tool: its `tools/list` entry and what a call does. */
interface ConformanceTool {
  readonly tool: Tool;
  call(args: Arguments, extra: Extra): Promise<CallToolResult>;
}

const noArguments = { type: 'object', properties: {} } as const;
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const stringArgument = (args: Arguments, name: string) =>
  typeof args[name] === 'string' ? args[name] : '';

function entry(
  name: string,
  description: string,
  call: ConformanceTool['call'],
  inputSchema: Tool['inputSchema'] = noArguments,
): ConformanceTool {
  return { tool: { name, description, inputSchema }, call };
}

/** The schema as the scenario states it; some of its forms (SEP-1330's) predate the SDK's type. */
type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

async function elicit(extra: Extra, message: string, requestedSchema: object) {
  const answer = await extra.sendRequest(
    {
      method: 'elicitation/create',
      params: { message, requestedSchema: requestedSchema as RequestedSchema },
    },
    ElicitResultSchema,
  );
  return text(
    `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
  );
}

const choices = (prefix: string, titles: readonly string[]) =>
  titles.map((title, index) => ({ const: `${prefix}${String(index + 1)}`, title }));

/** Every tool of the conformance target, by name. */
export const conformanceTools: readonly ConformanceTool[] = [
  entry('test_simple_text', 'Returns a simple text', () =>
    Promise.resolve(text('This is a simple text response for testing.')),
  ),
  entry('test_image_content', 'Returns an image', () =>
    Promise.resolve({ content: [{ type: 'image', data: redPixelPng, mimeType: 'image/png' }] }),
  ),
  entry('test_audio_content', 'Returns audio', () =>
    Promise.resolve({ content: [{ type: 'audio', data: silentWav, mimeType: 'audio/wav' }] }),
  ),
  entry('test_embedded_resource', 'Returns an embedded resource', () =>
    Promise.resolve({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  ),
  entry('test_multiple_content_types', 'Returns text, an image and a resource', () =>
    Promise.resolve({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: redPixelPng, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  ),
  entry('test_tool_with_logging', 'Logs three messages while it runs', async (_args, extra) => {
    const log = (data: string) =>
      extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', logger: 'conformance', data },
      });
    await log('Tool execution started');
    await pause(50);
    await log('Tool processing data');
    await pause(50);
    await log('Tool execution completed');
    return text('Logging tool finished');
  }),
  entry('test_error_handling', 'Always fails', () =>
    Promise.resolve({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    }),
  ),
  entry('test_tool_with_progress', 'Reports progress 0, 50, 100', async (_args, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await pause(50);
      if (progressToken !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 100 },
        });
    }
    return text('Progress tool finished');
  }),
  entry(
    'test_sampling',
    'Asks the client for a completion',
    async (args, extra) => {
      const answer = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [
              { role: 'user', content: { type: 'text', text: stringArgument(args, 'prompt') } },
            ],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      );
      const reply = answer.content.type === 'text' ? answer.content.text : answer.content.type;
      return text(`LLM response: ${reply}`);
    },
    { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  ),
  entry(
    'test_elicitation',
    'Asks the user for a name and an email address',
    (args, extra) =>
      elicit(extra, stringArgument(args, 'message'), {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      }),
    { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  ),
  entry('test_elicitation_sep1034_defaults', 'Elicits with defaults (SEP-1034)', (_args, extra) =>
    elicit(extra, 'Confirm the defaults', {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      },
    }),
  ),
  entry('test_elicitation_sep1330_enums', 'Elicits every enum form (SEP-1330)', (_args, extra) =>
    elicit(extra, 'Pick options', {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: { type: 'string', oneOf: choices('value', ['First', 'Second', 'Third']) },
        legacyEnum: {
          type: 'string',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        },
        titledMulti: { type: 'array', items: { anyOf: choices('value', ['One', 'Two', 'Three']) } },
      },
    }),
  ),
  entry(
    'json_schema_2020_12_tool',
    'Tool with JSON Schema 2020-12 features',
    () => Promise.resolve(text('ok')),
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  ),
  // The client must resume (Last-Event-ID) to get the answer: the server closes the stream first.
  entry('test_reconnection', 'Closes its stream before it answers', async (_args, extra) => {
    extra.closeSSEStream?.();
    await pause(100);
    return text('Reconnection test completed successfully');
  }),
];
