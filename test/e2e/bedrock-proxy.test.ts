import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type Message,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { generateText, jsonSchema, streamText, tool, type ToolSet } from 'ai';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { decodeEventStream } from '../../src/providers/bedrock/event-stream.js';
import { defaultConfig, type Config } from '../../src/config/config.js';
import type { JsonValue } from '../../src/trace/trace.js';
import { signedBedrockScript, upstreamCredentials } from '../support/bedrock-upstream.js';
import { runCliAsync } from '../support/cli.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: (TestProxy | ScriptedUpstream)[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

const region = 'eu-west-1';
const modelId =
  'arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-5';
/** What the agent's client signs its requests to calltape with: never forwarded, never stored. */
const agentCredentials = {
  accessKeyId: 'AKIDAGENTSIDE',
  secretAccessKey: 'agent-secret-abcdefghijklmnopqrstuvwxyz',
  sessionToken: 'agent-session-token-ZYXWVUTSRQPONMLKJIHGFEDCBA0123456789',
};

/** calltape's own environment: the default AWS chain finds the upstream credentials there, or nothing at all. */
const awsVariables = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
];
const saved = new Map(awsVariables.map((name) => [name, process.env[name]]));
function awsEnvironment(credentials: boolean): void {
  for (const name of awsVariables) delete process.env[name];
  // No ~/.aws and no instance metadata either: only what is set here.
  process.env['AWS_SHARED_CREDENTIALS_FILE'] = join(temporaryFolder(), 'no-credentials');
  process.env['AWS_CONFIG_FILE'] = join(temporaryFolder(), 'no-config');
  process.env['AWS_EC2_METADATA_DISABLED'] = 'true';
  if (!credentials) return;
  process.env['AWS_ACCESS_KEY_ID'] = upstreamCredentials.accessKeyId;
  process.env['AWS_SECRET_ACCESS_KEY'] = upstreamCredentials.secretAccessKey;
}
beforeAll(() => awsEnvironment(true));
afterAll(() => {
  for (const [name, value] of saved)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

const fixture = (name: string): JsonValue =>
  JSON.parse(
    readFileSync(
      new URL(`../../src/providers/bedrock/__fixtures__/${name}`, import.meta.url),
      'utf8',
    ),
  ) as JsonValue;
const chunkLines = (name: string): { [type: string]: JsonValue }[] =>
  readFileSync(new URL(`../../src/providers/bedrock/__fixtures__/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { [type: string]: JsonValue });

/** Bedrock's recorded answers: parallel tool use (whole), one tool use streamed with its input in two deltas. */
const parallel = fixture('ai-sdk-bedrock-parallel-tool-calls.json');
const streamedCall = chunkLines('ai-sdk-bedrock-tool-call.chunks.txt');
const answers = [
  { json: parallel, events: [] },
  { json: {}, events: [{ messageStart: { role: 'assistant' } }, ...streamedCall] },
];

const tools: Tool[] = ['get_resistor_value', 'get_capacitor_value', 'test-tool'].map((name) => ({
  toolSpec: {
    name,
    description: name,
    inputSchema: { json: { type: 'object', properties: { ref: { type: 'string' } } } },
  },
}));
const question: Message = { role: 'user', content: [{ text: 'Look up R1 and C1' }] };

/** The AWS SDK's client unmodified but for its endpoint: calltape's origin (HTTP/2, its default). */
function client(proxy: TestProxy): BedrockRuntimeClient {
  return new BedrockRuntimeClient({ region, endpoint: proxy.url, credentials: agentCredentials });
}

async function conversation(bedrock: BedrockRuntimeClient) {
  const whole = await bedrock.send(
    new ConverseCommand({ modelId, messages: [question], toolConfig: { tools } }),
  );
  const streamed = await bedrock.send(
    new ConverseStreamCommand({ modelId, messages: [question], toolConfig: { tools } }),
  );
  const events: unknown[] = [];
  for await (const event of streamed.stream ?? []) events.push(event);
  return { whole: { output: whole.output, stopReason: whole.stopReason }, events };
}

async function record(overrides: Partial<Config> = {}, scripted = answers) {
  const verdicts: boolean[] = [];
  const upstream = await startScriptedUpstream(signedBedrockScript(region, scripted, verdicts));
  running.push(upstream);
  const cassette = join(temporaryFolder(), 'bedrock.sqlite');
  const proxy = await startTestProxy('http://127.0.0.1:1', {
    cassette,
    mode: 'record',
    bedrockUpstream: upstream.url,
    bedrockRegion: region,
    ...overrides,
  });
  running.push(proxy);
  return { upstream, proxy, cassette, verdicts };
}

describe('Amazon Bedrock Converse through calltape, with @aws-sdk/client-bedrock-runtime', () => {
  it('re-signs each request for the upstream with the default chain, records parallel and streamed tool use, and replays with no credentials and the upstream down', async () => {
    awsEnvironment(true);
    const { upstream, proxy, cassette, verdicts } = await record();
    const recorded = await conversation(client(proxy));
    expect(recorded.whole.stopReason).toBe('tool_use');
    expect(
      recorded.whole.output?.message?.content?.flatMap((block) => block.toolUse ?? []),
    ).toEqual([
      {
        toolUseId: 'tooluse_hr5juciYZJwUHpRczsw13R',
        name: 'get_resistor_value',
        input: { ref: 'R1' },
        type: 'tool_use',
      },
      {
        toolUseId: 'tooluse_AZHw3Ym0S07qOv5NlXj9iJ',
        name: 'get_capacitor_value',
        input: { ref: 'C1' },
        type: 'tool_use',
      },
    ]);
    expect(recorded.events).toContainEqual({
      contentBlockStart: {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 'tool-use-id', name: 'test-tool' } },
      },
    });
    // The scripted upstream checked calltape's signature as the service would.
    expect(verdicts).toEqual([true, true]);
    for (const request of upstream.received) {
      expect(request.headers['authorization']).toContain(
        `Credential=${upstreamCredentials.accessKeyId}/`,
      );
      expect(request.headers['authorization']).toContain(`/${region}/bedrock/aws4_request`);
      expect(request.headers['x-amz-security-token']).toBeUndefined();
    }
    await proxy.close();

    const store = new SqliteStore(cassette, { readonly: true });
    const stored = store.interactions();
    store.close();
    expect(
      stored.map((interaction) => [
        interaction.provider,
        interaction.status,
        interaction.request.model,
      ]),
    ).toEqual([
      ['bedrock-converse', 'complete', modelId],
      ['bedrock-converse', 'complete', modelId],
    ]);
    expect(
      stored.map((interaction) =>
        interaction.response?.output.toolCalls.map((call) => [
          call.id,
          call.name,
          call.argumentsRaw,
        ]),
      ),
    ).toEqual([
      [
        ['tooluse_hr5juciYZJwUHpRczsw13R', 'get_resistor_value', '{"ref":"R1"}'],
        ['tooluse_AZHw3Ym0S07qOv5NlXj9iJ', 'get_capacitor_value', '{"ref":"C1"}'],
      ],
      [['tool-use-id', 'test-tool', '{"value":"Sparkle Day"}']],
    ]);
    expect(stored[0]?.request.tools.map((tool) => tool.name)).toEqual(
      tools.map((tool) => tool.toolSpec?.name),
    );
    const bytes = readFileSync(cassette);
    for (const secret of [
      agentCredentials.sessionToken,
      agentCredentials.secretAccessKey,
      upstreamCredentials.secretAccessKey,
      'AWS4-HMAC-SHA256',
    ])
      expect(bytes.includes(secret)).toBe(false);

    // Replay: no AWS credentials anywhere for calltape, and nothing listening upstream.
    awsEnvironment(false);
    await upstream.close();
    const replayer = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'replay',
      bedrockUpstream: upstream.url,
      bedrockRegion: region,
    });
    running.push(replayer);
    expect(await conversation(client(replayer))).toEqual(recorded);
    await replayer.close();
    // Stream-agnostic matching leaves a recorded stream's frames byte for byte (never decoded as UTF-8 text).
    const agnostic = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'replay',
      bedrockRegion: region,
      match: { ...defaultConfig.match, streamAgnostic: true },
    });
    running.push(agnostic);
    expect(await conversation(client(agnostic))).toEqual(recorded);
  });

  it('answers in Bedrock’s error shape, naming what to set, when recording without AWS credentials', async () => {
    awsEnvironment(false);
    const { proxy, verdicts } = await record();
    const error = await client(proxy)
      .send(new ConverseCommand({ modelId, messages: [question] }))
      .then(
        () => undefined,
        (failure: unknown) =>
          failure as { name: string; message: string; $metadata: { httpStatusCode?: number } },
      );
    expect(error?.name).toBe('UnrecognizedClientException');
    expect(error?.message).toContain('AWS_ACCESS_KEY_ID');
    expect(error?.$metadata.httpStatusCode).toBe(401);
    expect(verdicts).toEqual([]);
  });

  it('answers a replay miss as ResourceNotFoundException, which the SDK raises as its own class', async () => {
    const { proxy: recorder, cassette } = await record();
    await recorder.close();
    const proxy = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'replay',
      bedrockRegion: region,
    });
    running.push(proxy);
    await expect(
      client(proxy).send(new ConverseCommand({ modelId, messages: [question] })),
    ).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
  });
});

describe('Bedrock streams and redaction', () => {
  it('stores a stream whose frames held a secret re-expressed as valid frames without it (regression: byte redaction broke the frames)', async () => {
    awsEnvironment(true);
    const echoed = `Your token is ${agentCredentials.sessionToken}.`;
    const { proxy, cassette } = await record({}, [
      {
        json: {},
        events: [
          { messageStart: { role: 'assistant' } },
          { contentBlockDelta: { contentBlockIndex: 0, delta: { text: echoed } } },
          { contentBlockStop: { contentBlockIndex: 0 } },
          { messageStop: { stopReason: 'end_turn' } },
          {
            metadata: {
              usage: { inputTokens: 3, outputTokens: 9, totalTokens: 12 },
              metrics: { latencyMs: 1 },
            },
          },
        ],
      },
    ]);
    const streamedText = async (bedrock: BedrockRuntimeClient): Promise<string> => {
      const answer = await bedrock.send(
        new ConverseStreamCommand({ modelId, messages: [question] }),
      );
      let text = '';
      for await (const event of answer.stream ?? [])
        text += event.contentBlockDelta?.delta?.text ?? '';
      return text;
    };
    // The agent sees the answer as the model sent it.
    expect(await streamedText(client(proxy))).toBe(echoed);
    await proxy.close();
    expect(readFileSync(cassette).includes(agentCredentials.sessionToken)).toBe(false);
    awsEnvironment(false);
    const replayer = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'replay',
      bedrockRegion: region,
    });
    running.push(replayer);
    const replayed = await streamedText(client(replayer));
    expect(replayed).toMatch(/^Your token is \[REDACTED[^\]]*\]\.$/);
  });
});

describe('Bedrock runs listed and scored', () => {
  it('lists the recorded calls (calltape calls) and scores a suite over the run (calltape score)', async () => {
    awsEnvironment(true);
    const { proxy, cassette } = await record();
    // The case's session comes from the endpoint's /s/<case> prefix, which the SDK keeps in front of /model/….
    const bedrock = new BedrockRuntimeClient({
      region,
      endpoint: `${proxy.url}/s/parts`,
      credentials: agentCredentials,
    });
    await bedrock.send(
      new ConverseCommand({ modelId, messages: [question], toolConfig: { tools } }),
    );
    await proxy.close();
    const listed = await runCliAsync(['calls', '--cassette', cassette, '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { name: string; arguments: unknown }),
    ).toMatchObject([
      { name: 'get_resistor_value', arguments: { ref: 'R1' } },
      { name: 'get_capacitor_value', arguments: { ref: 'C1' } },
    ]);
    const folder = temporaryFolder();
    const suite = join(folder, 'bedrock.json');
    writeFileSync(
      suite,
      JSON.stringify({
        name: 'bedrock',
        cassette,
        cases: [
          {
            test_id: 'parts',
            prompt: 'Look up R1 and C1',
            expected_calls: [
              { expected_tool: 'get_capacitor_value', arguments: { ref: 'C1' } },
              { expected_tool: 'get_resistor_value', arguments: { ref: 'R1' } },
            ],
            expect: { max_rounds: 1 },
          },
        ],
      }),
    );
    const json = join(folder, 'report.json');
    const scored = await runCliAsync(['score', '--suite', suite, '--json', json]);
    expect(scored.status, scored.stdout + scored.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      cases: { test_id: string; status: string; score: number; rounds: number }[];
    };
    expect(
      report.cases.map((item) => [item.test_id, item.status, item.score, item.rounds]),
    ).toEqual([['parts', 'pass', 1, 1]]);
  });
});

describe('Amazon Bedrock through calltape, with @ai-sdk/amazon-bedrock', () => {
  const aiTools: ToolSet = Object.fromEntries(
    ['get_resistor_value', 'get_capacitor_value', 'test-tool'].map((name) => [
      name,
      tool({
        description: name,
        inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object', properties: {} }),
      }),
    ]),
  );
  async function calls(baseURL: string) {
    const bedrock = createAmazonBedrock({ region, baseURL, ...agentCredentials });
    const options = {
      model: bedrock(modelId),
      tools: aiTools,
      prompt: 'Look up R1 and C1',
      maxRetries: 0,
    };
    const whole = await generateText(options);
    const streamed = streamText(options);
    return [
      whole.toolCalls.map((call) => [call.toolCallId, call.toolName, call.input]),
      (await streamed.toolCalls).map((call) => [call.toolCallId, call.toolName, call.input]),
    ];
  }

  it('records generateText and streamText tool calls (signature checked upstream) and replays them with no credentials and the upstream down', async () => {
    awsEnvironment(true);
    const { upstream, proxy, cassette, verdicts } = await record();
    const recorded = await calls(proxy.url);
    expect(recorded).toEqual([
      [
        ['tooluse_hr5juciYZJwUHpRczsw13R', 'get_resistor_value', { ref: 'R1' }],
        ['tooluse_AZHw3Ym0S07qOv5NlXj9iJ', 'get_capacitor_value', { ref: 'C1' }],
      ],
      [['tool-use-id', 'test-tool', { value: 'Sparkle Day' }]],
    ]);
    expect(verdicts).toEqual([true, true]);
    await proxy.close();
    await upstream.close();
    awsEnvironment(false);
    const replayer = await startTestProxy('http://127.0.0.1:1', {
      cassette,
      mode: 'replay',
      bedrockUpstream: upstream.url,
      bedrockRegion: region,
    });
    running.push(replayer);
    expect(await calls(replayer.url)).toEqual(recorded);
  });
});

describe('Mock tools on Bedrock, with @aws-sdk/client-bedrock-runtime', () => {
  const mockFile = `
tools:
  check_stock: { type: object, properties: { sku: { type: string } }, required: [sku] }
mocks:
  - tool: check_stock
    result: { sku: "{{args.sku}}", count: 4 }
`;
  const stockTools: Tool[] = ['check_stock', 'place_order'].map((name) => ({
    toolSpec: { name, inputSchema: { json: { type: 'object', properties: {} } } },
  }));
  const ask: Message = { role: 'user', content: [{ text: 'Order all of A1' }] };
  const usage = {
    metadata: {
      usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 },
      metrics: { latencyMs: 5 },
    },
  };
  const use = (index: number, toolUseId: string, name: string, input: string) => [
    { contentBlockStart: { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } } },
    { contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input } } } },
    { contentBlockStop: { contentBlockIndex: index } },
  ];
  const text = (index: number, value: string) => [
    { contentBlockDelta: { contentBlockIndex: index, delta: { text: value } } },
    { contentBlockStop: { contentBlockIndex: index } },
  ];
  const streamed = (blocks: { [type: string]: JsonValue }[], stopReason: string) => ({
    json: {},
    events: [
      { messageStart: { role: 'assistant' } },
      ...blocks,
      { messageStop: { stopReason } },
      usage,
    ],
  });
  const whole = (content: JsonValue[], stopReason: string) => ({
    json: { output: { message: { role: 'assistant', content } }, stopReason, ...usage.metadata },
    events: [],
  });
  /** Converse: a hidden round (the mocked call alone), then the final text. ConverseStream: a hidden round, a mixed turn, then after the agent's result the final text. */
  const script = [
    whole(
      [{ toolUse: { toolUseId: 'tooluse_w1', name: 'check_stock', input: { sku: 'A1' } } }],
      'tool_use',
    ),
    whole([{ text: 'A1: 4 in stock.' }], 'end_turn'),
    streamed(use(0, 'tooluse_m1', 'check_stock', '{"sku":"A1"}'), 'tool_use'),
    streamed(
      [
        ...text(0, 'Stock is 4 — ordering.'),
        ...use(1, 'tooluse_m2', 'check_stock', '{"sku":"A1"}'),
        ...use(2, 'tooluse_o1', 'place_order', '{"sku":"A1","qty":4}'),
      ],
      'tool_use',
    ),
    streamed(text(0, 'Ordered.'), 'end_turn'),
  ];

  async function run(bedrock: BedrockRuntimeClient) {
    const events = async (messages: Message[]) => {
      const answer = await bedrock.send(
        new ConverseStreamCommand({ modelId, messages, toolConfig: { tools: stockTools } }),
      );
      const seen: unknown[] = [];
      for await (const event of answer.stream ?? []) seen.push(event);
      return seen;
    };
    const converse = await bedrock.send(
      new ConverseCommand({ modelId, messages: [ask], toolConfig: { tools: stockTools } }),
    );
    const first = await events([ask]);
    const second = await events([
      ask,
      {
        role: 'assistant',
        content: [
          { text: 'Stock is 4 — ordering.' },
          {
            toolUse: { toolUseId: 'tooluse_o1', name: 'place_order', input: { sku: 'A1', qty: 4 } },
          },
        ],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'tooluse_o1', content: [{ text: 'order 77' }] } }],
      },
    ]);
    return { converse: converse.output?.message?.content, first, second };
  }

  async function proxyWithMocks(overrides: Partial<Config>) {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'stock.yaml'), mockFile);
    const proxy = await startTestProxy('http://127.0.0.1:1', {
      bedrockRegion: region,
      mocks: { ...defaultConfig.mocks, files: [join(folder, 'stock.yaml')], mode: 'intercept' },
      ...overrides,
    });
    running.push(proxy);
    return proxy;
  }

  it('answers a mocked tool inside calltape: hidden rounds re-signed, the mixed stream rewritten as frames the SDK decodes, then replayed offline', async () => {
    awsEnvironment(true);
    const verdicts: boolean[] = [];
    const upstream = await startScriptedUpstream(signedBedrockScript(region, script, verdicts));
    running.push(upstream);
    const cassette = join(temporaryFolder(), 'bedrock-mocks.sqlite');
    const proxy = await proxyWithMocks({ cassette, mode: 'record', bedrockUpstream: upstream.url });
    const recorded = await run(client(proxy));

    // Converse: the agent sees only the turn after the hidden round.
    expect(recorded.converse).toEqual([{ text: 'A1: 4 in stock.' }]);
    // ConverseStream: calltape's frames decode in the SDK; the mocked call is gone, the agent's own is renumbered.
    expect(JSON.stringify(recorded.first)).not.toContain('check_stock');
    expect(recorded.first).toContainEqual({
      contentBlockStart: {
        contentBlockIndex: 1,
        start: { toolUse: { toolUseId: 'tooluse_o1', name: 'place_order' } },
      },
    });
    expect(recorded.first).toContainEqual({ messageStop: { stopReason: 'tool_use' } });
    expect(recorded.second).toContainEqual({
      contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Ordered.' } },
    });

    // Every round, hidden ones included, carried a valid signature for its own body.
    expect(verdicts).toEqual([true, true, true, true, true]);
    const sent = upstream.received.map(
      (request) => (JSON.parse(request.body) as { messages: Message[] }).messages,
    );
    expect(sent[1]?.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'tooluse_w1',
            content: [{ json: { sku: 'A1', count: 4 } }],
            status: 'success',
          },
        },
      ],
    });
    // The agent's next request went up with the hidden round spliced in and both results in one user message.
    expect(sent[4]?.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(sent[4]?.at(-1)?.content?.map((block) => block.toolResult?.toolUseId)).toEqual([
      'tooluse_m2',
      'tooluse_o1',
    ]);
    await proxy.close();
    await upstream.close();
    // The stored agent view of the mixed turn is the frames the agent got, byte for byte valid.
    const db = new Database(cassette, { readonly: true });
    const views = db
      .prepare(
        'SELECT agent_response_body AS got FROM interactions WHERE agent_response_body IS NOT NULL',
      )
      .all() as { got: Buffer }[];
    db.close();
    expect(views).toHaveLength(1);
    const view = decodeEventStream([views[0]?.got ?? Buffer.alloc(0)]);
    expect([view.invalid, view.trailing, view.events.length]).toEqual([undefined, 0, 8]);
    expect(JSON.stringify(view.events)).not.toContain('check_stock');

    // Replay: no credentials, the upstream down; hidden rounds come from the cassette.
    awsEnvironment(false);
    const replayer = await proxyWithMocks({ cassette, mode: 'replay' });
    expect(await run(client(replayer))).toEqual(recorded);
  });
});
