import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { defaultConfig } from '../../src/config/config.js';
import Anthropic from '@anthropic-ai/sdk';
import { sampled } from '../../src/live/sample.js';
import { anthropicEvents, anthropicMessage } from '../support/anthropic-messages-events.js';
import { chatCompletion } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import {
  startScriptedUpstream,
  type ReceivedRequest,
  type ScriptedResponse,
  type ScriptedUpstream,
} from '../support/scripted-upstream.js';
import {
  ask,
  bankModel,
  bankPolicies,
  bankTools,
  eventually,
  loopingAgent,
  metricValue,
  openFeed,
  writePolicies,
  type FeedClient,
} from '../support/shadow-bank.js';
import { runCli } from '../support/cli.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;
const running: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

async function setUp(
  policiesText: string,
  overrides: Partial<Config> = {},
  folder = temporaryFolder(),
): Promise<{
  proxy: TestProxy;
  upstream: ScriptedUpstream;
  client: OpenAI;
  folder: string;
  policies: string;
  database: string;
}> {
  const upstream = await startScriptedUpstream(bankModel);
  running.push(upstream);
  const policies = writePolicies(folder, policiesText);
  const database = join(folder, 'shadow.sqlite');
  const proxy = await startTestProxy(upstream.url, {
    mode: 'passthrough',
    ...overrides,
    shadow: { ...defaultConfig.shadow, ...overrides.shadow, policies, database },
  });
  running.push(proxy);
  const client = new OpenAI({
    apiKey: 'sk-test-key-0123456789abcdef',
    baseURL: proxy.baseUrl,
    maxRetries: 0,
  });
  return { proxy, upstream, client, folder, policies, database };
}

async function feedOf(proxy: TestProxy, query = ''): Promise<FeedClient> {
  const feed = await openFeed(`${proxy.url.replace('http', 'ws')}/calltape/feed${query}`);
  running.push(feed);
  return feed;
}

const metrics = async (proxy: TestProxy, headers: Record<string, string> = {}): Promise<string> => {
  const response = await fetch(`${proxy.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  return response.text();
};

describe('shadow scoring of live traffic', () => {
  it('counts a schema violation, a forbidden tool, a loop and an argument breach in /metrics and sends them on the feed', async () => {
    const { proxy, client, database } = await setUp(bankPolicies());
    const feed = await feedOf(proxy);

    await ask(client, 'transfer big please', { session: 'big' });
    await ask(client, 'bad schema transfer', { session: 'schema', stream: true });
    await ask(client, 'delete my account', { session: 'delete' });
    await ask(client, 'transfer yen', { session: 'yen', stream: true });
    await ask(client, 'transfer 120 euros', { session: 'fine' });
    await loopingAgent(client, 'looping', 4);

    const scored = (session: string) =>
      feed.waitFor(
        (event) => event['type'] === 'call.scored' && event['sessionId'] === session,
        `call.scored for ${session}`,
      );
    const reasons = async (session: string) =>
      ((await scored(session))['failures'] as { policy: string; reason: string }[]).map(
        (failure) => `${failure.policy}/${failure.reason}`,
      );
    expect(await reasons('big')).toEqual(['transfer-limits/out_of_range']);
    expect(await reasons('schema')).toEqual([
      'valid-arguments/schema_violation',
      'transfer-limits/not_a_number',
    ]);
    expect(await reasons('delete')).toEqual(['no-account-deletion/forbidden_call']);
    expect(await reasons('yen')).toEqual(['transfer-limits/value_mismatch']);
    expect(await reasons('fine')).toEqual([]);
    expect((await scored('fine'))['verdict']).toBe('pass');
    const big = await scored('big');
    expect(big).toMatchObject({
      tool: 'transfer_money',
      model: 'gpt-test',
      wire: 'openai-chat',
      verdict: 'fail',
    });
    expect((big['failures'] as { message: string }[])[0]?.message).toBe(
      'amount is 25000, above the maximum 10000',
    );

    // The loop is a session verdict: it arrives once the session has been idle for the timeout.
    const loop = await feed.waitFor(
      (event) => event['type'] === 'session.scored' && event['sessionId'] === 'looping',
      'the looping session scored',
    );
    expect(loop).toMatchObject({ verdict: 'fail', turns: 4, calls: 4 });
    expect(loop['failures']).toEqual([
      expect.objectContaining({ policy: 'no-loops', reason: 'repeated_call' }),
    ]);
    expect(
      feed.events.some(
        (event) => event['type'] === 'call.captured' && event['sessionId'] === 'big',
      ),
    ).toBe(true);

    const text = await metrics(proxy);
    const failures = (labels: Record<string, string>) =>
      metricValue(text, 'calltape_policy_failures_total', labels);
    expect(
      failures({
        policy: 'transfer-limits',
        tool: 'transfer_money',
        reason: 'out_of_range',
        model: 'gpt-test',
      }),
    ).toBe(1);
    expect(
      failures({
        policy: 'valid-arguments',
        tool: 'transfer_money',
        reason: 'schema_violation',
        model: 'gpt-test',
      }),
    ).toBe(1);
    expect(
      failures({
        policy: 'no-account-deletion',
        tool: 'delete_account',
        reason: 'forbidden_call',
        model: 'gpt-test',
      }),
    ).toBe(1);
    expect(
      failures({ policy: 'no-loops', tool: '', reason: 'repeated_call', model: 'gpt-test' }),
    ).toBe(1);
    expect(
      metricValue(text, 'calltape_tool_calls_scored_total', {
        tool: 'transfer_money',
        model: 'gpt-test',
        verdict: 'fail',
      }),
    ).toBe(3);
    expect(
      metricValue(text, 'calltape_tool_calls_scored_total', {
        tool: 'transfer_money',
        model: 'gpt-test',
        verdict: 'pass',
      }),
    ).toBe(1);
    expect(
      metricValue(text, 'calltape_tool_calls_captured_total', {
        tool: 'get_balance',
        model: 'gpt-test',
      }),
    ).toBe(4);
    // Score histogram: four transfers scored, the one that met every policy in the top bucket only.
    expect(metricValue(text, 'calltape_tool_call_score_count', { tool: 'transfer_money' })).toBe(4);
    expect(
      metricValue(text, 'calltape_tool_call_score_bucket', { le: '0.99', tool: 'transfer_money' }),
    ).toBe(3);
    expect(
      metricValue(text, 'calltape_requests_total', {
        route: 'openai-chat',
        model: 'gpt-test',
        status: '2xx',
      }),
    ).toBe(9);
    expect(
      metricValue(text, 'calltape_upstream_ttfb_seconds_count', {
        route: 'openai-chat',
        model: 'gpt-test',
      }),
    ).toBe(9);
    // A session with a failing call fails too: big, schema, delete, yen and the loop.
    await eventually(async () =>
      expect(
        metricValue(await metrics(proxy), 'calltape_sessions_scored_total', { verdict: 'fail' }),
      ).toBe(5),
    );
    expect(
      metricValue(await metrics(proxy), 'calltape_sessions_scored_total', { verdict: 'pass' }),
    ).toBe(1);
    expect(metricValue(text, 'calltape_shadow_dropped_total')).toBe(0);
    // No ids in labels: sessions and interactions never become series.
    expect(text).not.toMatch(/session_id|interaction|looping/);

    await proxy.close();
    const db = new Database(database, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM calls').pluck().get()).toBe(9);
    expect(
      db.prepare("SELECT reason FROM failures WHERE session_id = 'big'").pluck().all(),
    ).toEqual(['out_of_range']);
    expect(
      db.prepare("SELECT verdict FROM sessions WHERE session_id = 'looping'").pluck().get(),
    ).toBe('fail');
    db.close();

    // calltape shadow report reads the same database.
    const json = runCli(['shadow', 'report', '--db', database, '--since', '1h', '--json']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as {
      calls: number;
      byPolicy: { name: string; evaluated: number; failed: number }[];
      offenders: { policy: string; reason: string; count: number }[];
    };
    expect(report.calls).toBe(9);
    expect(report.byPolicy.find((row) => row.name === 'transfer-limits')).toMatchObject({
      evaluated: 4,
      failed: 3,
    });
    expect(report.byPolicy.find((row) => row.name === 'no-loops')).toMatchObject({
      evaluated: 6,
      failed: 1,
    });
    expect(report.offenders).toContainEqual(
      expect.objectContaining({
        policy: 'no-account-deletion',
        reason: 'forbidden_call',
        count: 1,
      }),
    );
    const printed = runCli(['shadow', 'report', '--db', database]);
    expect(printed.status).toBe(0);
    expect(printed.stdout).toMatch(/transfer_money\s+│\s+4\s+│\s+3\s+│\s+25\.0%/);
    expect(printed.stdout).toContain('worst offenders');
    expect(runCli(['shadow', 'report', '--db', database, '--since', 'yesterday']).status).toBe(2);
    expect(
      runCli(['shadow', 'report', '--db', join(database, '..', 'missing.sqlite')]).status,
    ).toBe(2);
  });

  it('reloads the policies file when it changes, and keeps the last good policies after a bad edit', async () => {
    const { proxy, client, policies } = await setUp(bankPolicies());
    const feed = await feedOf(proxy, '?type=call.scored,policies.reloaded');
    await ask(client, 'transfer big', { session: 'before' });
    await feed.waitFor(
      (event) => event['sessionId'] === 'before' && event['verdict'] === 'fail',
      'a breach before the edit',
    );

    writeFileSync(policies, bankPolicies().replace('max: 10000', 'max: 50000'));
    await feed.waitFor(
      (event) => event['type'] === 'policies.reloaded' && event['ok'] === true,
      'the reload',
    );
    await ask(client, 'transfer big', { session: 'after' });
    await feed.waitFor(
      (event) => event['sessionId'] === 'after' && event['verdict'] === 'pass',
      'a pass under the new limit',
    );

    writeFileSync(policies, bankPolicies().replace('max: 10000', 'max: lots'));
    const bad = await feed.waitFor(
      (event) => event['type'] === 'policies.reloaded' && event['ok'] === false,
      'the failed reload',
    );
    expect(bad['message']).toContain('policies[1] (transfer-limits): arguments.amount.max');
    await ask(client, 'transfer big', { session: 'after-bad-edit' });
    await feed.waitFor(
      (event) => event['sessionId'] === 'after-bad-edit' && event['verdict'] === 'pass',
      'the last good limit still in force',
    );
    const text = await metrics(proxy);
    expect(metricValue(text, 'calltape_policies_reloads_total', { result: 'ok' })).toBe(2);
    expect(metricValue(text, 'calltape_policies_reloads_total', { result: 'error' })).toBe(1);
  });

  it('drops the oldest queued rounds when the scorer falls behind, counts them, and never slows the agent', async () => {
    const folder = temporaryFolder();
    const marker = join(folder, 'judging');
    writeFileSync(
      join(folder, 'slow-judge.mjs'),
      `import { existsSync, writeFileSync } from 'node:fs';\nexport function judge() { if (existsSync(${JSON.stringify(marker)})) return { pass: true }; writeFileSync(${JSON.stringify(marker)}, 'x'); const until = Date.now() + 1500; while (Date.now() < until); return { pass: true }; }\n`,
    );
    const { proxy, client } = await setUp(
      bankPolicies(
        `  - id: slow\n    kind: judge\n    code: ${join(folder, 'slow-judge.mjs')}\n`,
      ).replace('150ms', '50ms'),
      { shadow: { ...defaultConfig.shadow, queueSize: 3 } },
      // Beside the policies file: a module outside its project root is refused (issue #30).
      folder,
    );
    await ask(client, 'balance', { session: 'first' });
    // The first session ends and its judge holds the scorer for 1.5 s.
    await eventually(async () => {
      const { existsSync } = await import('node:fs');
      if (!existsSync(marker)) throw new Error('the judge has not started');
    });
    // Every agent request is answered while the scorer is stuck; the first two go to the worker's inbox (two batches in flight), three wait, five are dropped.
    for (let index = 0; index < 10; index++)
      await ask(client, 'balance', { session: `burst-${index}` });
    const text = await metrics(proxy);
    expect(
      metricValue(text, 'calltape_requests_total', {
        route: 'openai-chat',
        model: 'gpt-test',
        status: '2xx',
      }),
    ).toBe(11);
    expect(metricValue(text, 'calltape_shadow_dropped_total')).toBe(5);
    expect(metricValue(text, 'calltape_shadow_queue_depth')).toBe(3);
    expect(metricValue(text, 'calltape_shadow_queued_total')).toBe(11);
  });

  it('keeps at most the configured rows (retention)', async () => {
    const { proxy, client, database } = await setUp(bankPolicies(), {
      shadow: { ...defaultConfig.shadow, retention: { maxRows: 3, maxAge: null } },
    });
    const feed = await feedOf(proxy);
    for (let index = 0; index < 8; index++) await ask(client, 'balance', { session: `s${index}` });
    await feed.waitFor(
      (event) => event['type'] === 'call.scored' && event['sessionId'] === 's7',
      'the last call scored',
    );
    await proxy.close();
    const db = new Database(database, { readonly: true });
    expect(db.prepare('SELECT session_id FROM calls ORDER BY id').pluck().all()).toEqual([
      's5',
      's6',
      's7',
    ]);
    expect(db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBeLessThanOrEqual(3);
    db.close();
  });

  it('posts an alert to the webhook when a policy pass rate drops below its threshold, once per cool-down', async () => {
    const received: Record<string, unknown>[] = [];
    const hook = createServer((request: IncomingMessage, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        received.push(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => hook.close(() => resolve())) });
    const webhook = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`;
    const text =
      bankPolicies().replace(
        '    tool: transfer_money\n',
        '    tool: transfer_money\n    threshold: 0.9\n',
      ) + `alerts:\n  webhook: ${webhook}\n  window: 10m\n  min_calls: 2\n  cooldown: 1h\n`;
    const { proxy, client } = await setUp(text);
    const feed = await feedOf(proxy, '?type=alert');
    await ask(client, 'transfer 120 euros', { session: 'a' });
    await ask(client, 'transfer big', { session: 'b' });
    const alert = await feed.waitFor((event) => event['type'] === 'alert', 'the alert');
    expect(alert).toMatchObject({
      policy: 'transfer-limits',
      passRate: 0.5,
      threshold: 0.9,
      evaluated: 2,
      failed: 1,
    });
    // A dashboard opened after the alert fired still shows it (from the state API it loads first).
    const state = (await (await fetch(`${proxy.url}/calltape/api/state`)).json()) as {
      alerts: unknown[];
    };
    expect(state.alerts).toEqual([
      expect.objectContaining({ policy: 'transfer-limits', passRate: 0.5 }),
    ]);
    await eventually(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({
      source: 'calltape',
      kind: 'pass_rate_below_threshold',
      policy: 'transfer-limits',
      passRate: 0.5,
    });
    await ask(client, 'transfer big', { session: 'c' });
    // The third call is scored (and noted by the alert window) by the time the metric counts it; still one POST: the cool-down holds.
    await eventually(async () =>
      expect(
        metricValue(await metrics(proxy), 'calltape_tool_calls_scored_total', {
          tool: 'transfer_money',
          model: 'gpt-test',
          verdict: 'fail',
        }),
      ).toBe(2),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toHaveLength(1);
    expect(
      metricValue(await metrics(proxy), 'calltape_alerts_total', { policy: 'transfer-limits' }),
    ).toBe(1);
  });

  it('redacts what it shows: configured body patterns never reach the feed or the shadow database', async () => {
    const { proxy, client, database } = await setUp(bankPolicies(), {
      redact: {
        ...defaultConfig.redact,
        headers: [],
        bodyPatterns: [{ pattern: 'ACCT-\\d+', flags: '', replacement: '[ACCOUNT]' }],
      },
    });
    const feed = await feedOf(proxy, '?tool=transfer_money');
    await ask(client, 'transfer 120 euros', { session: 'r' });
    const scored = await feed.waitFor((event) => event['type'] === 'call.scored', 'the transfer');
    expect(scored['arguments']).toBe('{"amount":120,"currency":"EUR","to":"[ACCOUNT]"}');
    expect(JSON.stringify(feed.events)).not.toContain('ACCT-12345');
    await proxy.close();
    const db = new Database(database, { readonly: true });
    expect(JSON.stringify(db.prepare('SELECT * FROM calls').all())).not.toContain('ACCT-12345');
    db.close();
  });
});

describe('shadow scoring on the other wires and with model judges', () => {
  it('scores Anthropic Messages traffic from the official SDK the same way', async () => {
    const upstream = await startScriptedUpstream((request, callNumber) => {
      const body = JSON.parse(request.body) as { stream?: boolean };
      const turn = {
        toolUses: [
          {
            id: `toolu_${callNumber}`,
            name: 'transfer_money',
            input: '{"amount":25000,"currency":"USD","to":"ACCT-1"}',
          },
        ],
      };
      return body.stream
        ? {
            kind: 'sse',
            body: anthropicEvents(turn, seededRandom(callNumber + 3)),
            split: { seed: callNumber, maxPiece: 11 },
          }
        : { kind: 'json', body: anthropicMessage(turn) };
    });
    running.push(upstream);
    const folder = temporaryFolder();
    const proxy = await startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      anthropicUpstream: upstream.url,
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(folder, bankPolicies()),
        database: join(folder, 'shadow.sqlite'),
      },
    });
    running.push(proxy);
    const feed = await feedOf(proxy, '?type=call.scored');
    const client = new Anthropic({
      apiKey: 'sk-ant-test-0123456789abcdef',
      baseURL: proxy.url,
      maxRetries: 0,
    });
    const tools = bankTools.map((tool) => ({
      name: tool.function.name,
      description: tool.function.description ?? '',
      input_schema: tool.function.parameters as Anthropic.Tool.InputSchema,
    }));
    await client.messages.create(
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 256,
        tools,
        messages: [{ role: 'user', content: 'transfer big' }],
      },
      { headers: { 'x-calltape-session': 'claude-json' } },
    );
    const stream = client.messages.stream(
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 256,
        tools,
        messages: [{ role: 'user', content: 'transfer big' }],
      },
      { headers: { 'x-calltape-session': 'claude-sse' } },
    );
    await stream.finalMessage();
    for (const session of ['claude-json', 'claude-sse']) {
      const scored = await feed.waitFor((event) => event['sessionId'] === session, session);
      expect(scored).toMatchObject({
        wire: 'anthropic-messages',
        model: 'claude-sonnet-4-5',
        tool: 'transfer_money',
        verdict: 'fail',
        failures: [expect.objectContaining({ policy: 'transfer-limits', reason: 'out_of_range' })],
      });
    }
    expect(
      metricValue(await metrics(proxy), 'calltape_policy_failures_total', {
        policy: 'transfer-limits',
        tool: 'transfer_money',
        reason: 'out_of_range',
        model: 'claude-sonnet-4-5',
      }),
    ).toBe(2);
  });

  it('asks a sampled LLM judge through the proxy when a session ends, and never scores the judge itself', async () => {
    const judged = (request: ReceivedRequest, callNumber: number): ScriptedResponse => {
      const body = JSON.parse(request.body) as { messages: { content: string | null }[] };
      if (body.messages.some((message) => message.content?.startsWith('Rubric:')))
        return {
          kind: 'json',
          body: chatCompletion({
            text: JSON.stringify({
              pass: false,
              score: 0.2,
              reason: 'The agent promised a refund it cannot give.',
            }),
          }),
        };
      return bankModel(request, callNumber);
    };
    const upstream = await startScriptedUpstream(judged);
    running.push(upstream);
    const folder = temporaryFolder();
    const proxy = await startTestProxy(upstream.url, {
      mode: 'passthrough',
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(
          folder,
          bankPolicies(
            '  - { id: tone, kind: judge, rubric: "Never promise what you cannot do.", sample: 0.5 }\n',
          ),
        ),
        database: join(folder, 'shadow.sqlite'),
      },
    });
    running.push(proxy);
    const client = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    });
    // Sampling is a hash of policy and session: find one session the judge samples and one it skips.
    const ids = Array.from({ length: 50 }, (_, index) => `run-${index}`);
    const inSample = ids.find((id) => sampled(0.5, 'tone', id)) as string;
    const outOfSample = ids.find((id) => !sampled(0.5, 'tone', id)) as string;
    const feed = await feedOf(proxy, '?type=session.scored');
    await ask(client, 'balance', { session: inSample });
    await ask(client, 'balance', { session: outOfSample });
    const judgedSession = await feed.waitFor(
      (event) => event['sessionId'] === inSample,
      'the sampled session',
    );
    expect(judgedSession).toMatchObject({
      verdict: 'fail',
      evaluated: ['no-loops', 'tone'],
      failures: [
        {
          policy: 'tone',
          reason: 'judge_failed',
          message: 'The agent promised a refund it cannot give.',
        },
      ],
    });
    expect(
      await feed.waitFor((event) => event['sessionId'] === outOfSample, 'the other session'),
    ).toMatchObject({ verdict: 'pass', evaluated: ['no-loops'] });
    expect(
      upstream.received.filter(
        (request) =>
          request.headers['x-calltape-session'] === undefined && request.body.includes('Rubric:'),
      ),
    ).toHaveLength(1);
    const text = await metrics(proxy);
    // The judge's own round trip went through the proxy, but it is not an agent's call.
    expect(
      metricValue(text, 'calltape_requests_total', {
        route: 'openai-chat',
        model: 'gpt-test',
        status: '2xx',
      }),
    ).toBe(2);
    expect(
      metricValue(text, 'calltape_requests_total', {
        route: 'openai-chat',
        model: 'gpt-4o-mini',
        status: '2xx',
      }),
    ).toBe(1);
    expect(
      metricValue(text, 'calltape_tool_calls_captured_total', {
        tool: 'get_balance',
        model: 'gpt-test',
      }),
    ).toBe(2);
    expect(
      feed.events.filter((event) => String(event['sessionId']).startsWith('calltape-judge')),
    ).toEqual([]);
  });
});

describe('ground-truth cases in live policies', () => {
  it('scores a session tagged with a case id (x-calltape-case, or a session id equal to one) against that case', async () => {
    const folder = temporaryFolder();
    const suite = join(folder, 'suite.yaml');
    writeFileSync(
      suite,
      'name: live-cases\ncases:\n  - test_id: pay-rent\n    prompt: pay my rent\n    expected_tool: transfer_money\n    arguments: { amount: 120, currency: EUR, to: ACCT-12345 }\n',
    );
    const { proxy, client } = await setUp(
      bankPolicies(`  - { id: truth, kind: cases, suites: [${suite}] }\n`),
    );
    const feed = await feedOf(proxy, '?type=session.scored');
    const tagged = { 'x-calltape-case': 'pay-rent' };
    await client.chat.completions.create(
      {
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'transfer 120 euros' }],
        tools: bankTools,
      },
      { headers: { ...tagged, 'x-calltape-session': 'tagged-good' } },
    );
    await client.chat.completions.create(
      {
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'transfer yen' }],
        tools: bankTools,
      },
      { headers: { ...tagged, 'x-calltape-session': 'tagged-bad' } },
    );
    await ask(client, 'transfer 120 euros', { session: 'pay-rent' });
    await ask(client, 'transfer 120 euros', { session: 'untagged' });
    const session = (id: string) => feed.waitFor((event) => event['sessionId'] === id, id);
    expect(await session('tagged-good')).toMatchObject({
      caseId: 'pay-rent',
      verdict: 'pass',
      evaluated: ['no-loops', 'truth'],
    });
    const bad = await session('tagged-bad');
    expect(bad).toMatchObject({
      caseId: 'pay-rent',
      verdict: 'fail',
      failures: [expect.objectContaining({ policy: 'truth', reason: 'case_failed' })],
    });
    expect((bad['failures'] as { message: string }[])[0]?.message).toContain('case pay-rent:');
    expect(await session('pay-rent')).toMatchObject({
      caseId: 'pay-rent',
      verdict: 'pass',
      evaluated: ['no-loops', 'truth'],
    });
    expect(await session('untagged')).toMatchObject({ verdict: 'pass', evaluated: ['no-loops'] });
  });
});

describe('semantic rules in live policies', () => {
  it('fetches embeddings through the proxy for a sampled semantic rule and scores the argument by meaning', async () => {
    const vectors: Record<string, number[]> = {
      'rent payment': [1, 0],
      'rent for May': [0.96, 0.28],
      'pizza night': [0, 1],
    };
    const upstream = await startScriptedUpstream((request, callNumber) => {
      if (request.url.endsWith('/embeddings')) {
        const { input } = JSON.parse(request.body) as { input: string[] };
        return {
          kind: 'json',
          body: {
            object: 'list',
            data: input.map((text, index) => ({
              object: 'embedding',
              index,
              embedding: vectors[text] ?? [0.5, 0.5],
            })),
            model: 'text-embedding-3-small',
          },
        };
      }
      const memo =
        (JSON.parse(request.body) as { messages: { content: string }[] }).messages[0]?.content ??
        '';
      return {
        kind: 'json',
        body: chatCompletion({
          toolCalls: [
            {
              id: `call_${callNumber}`,
              name: 'transfer_money',
              arguments: JSON.stringify({ amount: 900, currency: 'EUR', to: 'ACCT-1', memo }),
            },
          ],
        }),
      };
    });
    running.push(upstream);
    const folder = temporaryFolder();
    const policies =
      '  - id: memo-is-rent\n    kind: arguments\n    tool: transfer_money\n    sample: 0.99999\n    arguments:\n      memo: { matching_strategy: semantic, value: rent payment, threshold: 0.9 }\n';
    const proxy = await startTestProxy(upstream.url, {
      mode: 'passthrough',
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(folder, `policies:\n${policies}`),
        database: join(folder, 'shadow.sqlite'),
      },
    });
    running.push(proxy);
    const feed = await feedOf(proxy, '?type=call.scored');
    const client = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    });
    await ask(client, 'rent for May', { session: 'rent' });
    await ask(client, 'pizza night', { session: 'pizza' });
    expect(await feed.waitFor((event) => event['sessionId'] === 'rent', 'rent')).toMatchObject({
      verdict: 'pass',
      evaluated: ['memo-is-rent'],
    });
    const pizza = await feed.waitFor((event) => event['sessionId'] === 'pizza', 'pizza');
    expect(pizza).toMatchObject({
      verdict: 'fail',
      failures: [
        { policy: 'memo-is-rent', reason: 'value_mismatch', path: 'memo', actual: 'pizza night' },
      ],
    });
    expect((pizza['failures'] as { message: string }[])[0]?.message).toContain('cosine 0');
    // Each text was embedded once, through the proxy (so it is counted and never stored).
    const embedded = upstream.received
      .filter((request) => request.url.endsWith('/embeddings'))
      .flatMap((request) => (JSON.parse(request.body) as { input: string[] }).input);
    expect(embedded.sort()).toEqual([
      'ACCT-1',
      'EUR',
      'pizza night',
      'rent for May',
      'rent payment',
    ]);
  });
});

describe('calltape score --policies', () => {
  it('scores a recorded cassette against a policies file offline, the way shadow scoring would live', () => {
    const folder = temporaryFolder();
    const database = join(folder, 'offline.sqlite');
    const result = runCli([
      'score',
      '--cassette',
      'recordings/bank-demo.sqlite',
      '--policies',
      'config/policies/bank.yaml',
      '--shadow-db',
      database,
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    // The bundled run: three calls break their tool's schema (TC-003, TC-010, TC-014); the suite itself fails only TC-010, as npm run demo shows.
    expect(result.stdout).toContain('3 call(s) and 3 session(s) failed a policy');
    expect(result.stdout).toMatch(/ground-truth\s+│\s+22\s+│\s+1\s+│\s+95\.5%/);
    const report = JSON.parse(
      runCli(['shadow', 'report', '--db', database, '--since', '3650d', '--json']).stdout,
    ) as { calls: number; sessions: { total: number } };
    expect(report).toMatchObject({ calls: 20, sessions: { total: 22 } });
    expect(runCli(['score', '--cassette', 'recordings/bank-demo.sqlite']).status).toBe(2);
  });
});

describe('admin surfaces', () => {
  it('require the admin token when one is set: /metrics, the dashboard, its state and the feed', async () => {
    const token = 'admin-token-0123456789';
    const { proxy } = await setUp(bankPolicies(), { admin: { ...defaultConfig.admin, token } });
    for (const path of ['/metrics', '/calltape/api/v1/staging', '/calltape/api/state']) {
      expect((await fetch(`${proxy.url}${path}`)).status).toBe(401);
      expect(
        (
          await fetch(`${proxy.url}${path}`, {
            headers: { authorization: 'Bearer wrong-token-0123456789' },
          })
        ).status,
      ).toBe(401);
      expect(
        (await fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(200);
    }
    // The token in the address becomes a cookie, and the address loses it (so no Referer can carry it).
    const page = await fetch(`${proxy.url}/calltape/?token=${token}`, { redirect: 'manual' });
    expect([page.status, page.headers.get('location')]).toEqual([303, '/calltape/']);
    const cookie = page.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^calltape_admin=.*; Path=\/calltape; HttpOnly; SameSite=Strict$/);
    // With the cookie, the dashboard's address leads on to the app (Staging is one of its sections).
    const withCookie = await fetch(`${proxy.url}/calltape/`, {
      headers: { cookie: cookie.split(';')[0] ?? '' },
      redirect: 'manual',
    });
    expect([withCookie.status, withCookie.headers.get('location')]).toEqual([
      302,
      '/calltape/app/',
    ]);
    expect((await fetch(`${proxy.url}/calltape/`, { redirect: 'manual' })).status).toBe(401);
    await expect(openFeed(`${proxy.url.replace('http', 'ws')}/calltape/feed`)).rejects.toThrow(
      'feed answered 401',
    );
    const feed = await openFeed(`${proxy.url.replace('http', 'ws')}/calltape/feed?token=${token}`);
    feed.close();
    // The agent's own routes are not admin surfaces.
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });

  it('serves request and upstream latency metrics with shadow scoring off, and says so on the dashboard state', async () => {
    const upstream = await startScriptedUpstream(bankModel);
    running.push(upstream);
    const proxy = await startTestProxy(upstream.url, { mode: 'passthrough' });
    running.push(proxy);
    const feed = await feedOf(proxy, '?type=call.captured');
    const client = new OpenAI({
      apiKey: 'sk-test-key-0123456789abcdef',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    });
    await ask(client, 'balance', { session: 'plain' });
    await ask(client, 'balance', { session: 'plain', stream: true });
    const text = await metrics(proxy);
    expect(
      metricValue(text, 'calltape_requests_total', {
        route: 'openai-chat',
        model: 'gpt-test',
        status: '2xx',
      }),
    ).toBe(2);
    expect(
      metricValue(text, 'calltape_upstream_duration_seconds_count', {
        route: 'openai-chat',
        model: 'gpt-test',
      }),
    ).toBe(2);
    expect(
      metricValue(text, 'calltape_tool_calls_captured_total', {
        tool: 'get_balance',
        model: 'gpt-test',
      }),
    ).toBe(0);
    expect(
      await feed.waitFor((event) => event['sessionId'] === 'plain', 'the captured outline'),
    ).toMatchObject({ route: 'openai-chat', model: 'gpt-test', status: 200 });
    const state = (await (await fetch(`${proxy.url}/calltape/api/state`)).json()) as {
      shadow: unknown;
    };
    expect(state.shadow).toBeNull();
  });

  it('exits 2 from calltape proxy with a bad policies file, naming the file, the policy and the field', () => {
    const folder = temporaryFolder();
    const file = writePolicies(
      folder,
      'policies:\n  - { id: limits, kind: arguments, tool: t, arguments: { amount: { max: lots } } }\n',
    );
    const result = runCli(['proxy', '--port', '0', '--mode', 'passthrough', '--policies', file], {
      cwd: folder,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `CONFIG_INVALID: ${file}: policies[0] (limits): arguments.amount.max: must be number`,
    );
  });

  it('refuses to start when the shadow database cannot be opened, naming it', async () => {
    const folder = temporaryFolder();
    const notAFolder = join(folder, 'file');
    writeFileSync(notAFolder, 'x');
    const start = startTestProxy('http://127.0.0.1:9', {
      mode: 'passthrough',
      shadow: {
        ...defaultConfig.shadow,
        policies: writePolicies(folder, bankPolicies()),
        database: join(notAFolder, 'shadow.sqlite'),
      },
    });
    await expect(start).rejects.toThrow(
      `${join(notAFolder, 'shadow.sqlite')}: cannot open the shadow-scoring database`,
    );
  });

  it('refuses to listen on a non-loopback host without an admin token', async () => {
    await expect(startTestProxy('http://127.0.0.1:9', { host: '0.0.0.0' })).rejects.toThrow(
      /admin token/,
    );
    const open = await startTestProxy('http://127.0.0.1:9', {
      host: '0.0.0.0',
      admin: { ...defaultConfig.admin, token: 'admin-token-0123456789' },
    });
    await open.close();
  });
});
