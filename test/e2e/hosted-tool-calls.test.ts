/**
 * Tools the provider runs itself, end to end: real recorded answers (the Vercel AI SDK's
 * recordings of the live APIs, in src/providers/<wire>/__fixtures__/) served by the scripted
 * upstream, fetched through the proxy by the official SDKs, stored, read back from the cassette
 * and scored — the hosted calls are in the trajectory, expected, forbidden and status-checked.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { packageRoot } from '../../src/package-root.js';
import { scoreTrajectory } from '../../src/scoring/trajectory/score-trajectory.js';
import { buildTrajectories } from '../../src/trace/build-trajectories.js';
import type { JsonValue } from '../../src/trace/trace.js';
import type { Trajectory } from '../../src/trace/trajectory.js';
import { runCli } from '../support/cli.js';
import { framedJsonLines } from '../support/recorded-streams.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const fixture = (wire: string, file: string): string =>
  readFileSync(join(packageRoot, 'src/providers', wire, '__fixtures__', file), 'utf8');

const apiKey = 'sk-test-key-0123456789abcdef';

describe('hosted tool calls through the proxy, in the cassette and the trajectory', () => {
  let upstream: ScriptedUpstream;
  let trajectories: Map<string, Trajectory>;
  const cassette = join(temporaryFolder(), 'hosted.sqlite');

  beforeAll(async () => {
    upstream = await startScriptedUpstream((request) =>
      request.url.includes('/responses')
        ? {
            kind: 'sse',
            body: new TextDecoder().decode(
              framedJsonLines(fixture('openai-responses', 'ai-sdk-openai-mcp-tool.1.chunks.txt')),
            ),
            split: { seed: 7, maxPiece: 400 },
            headers: { 'content-type': 'text/event-stream; charset=utf-8' },
          }
        : {
            kind: 'json',
            body: JSON.parse(
              fixture('anthropic-messages', 'ai-sdk-anthropic-web-fetch-tool.error.json'),
            ) as JsonValue,
          },
    );
    const proxy = await startTestProxy(upstream.url, {
      cassette,
      mode: 'record',
      anthropicUpstream: upstream.url,
    });
    const openai = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
    const stream = await openai.responses.create(
      {
        model: 'gpt-5-mini',
        input: 'Who won the NYC mayoral election?',
        tools: [
          {
            type: 'mcp',
            server_label: 'dmcp',
            server_url: 'https://mcp.exa.ai/mcp',
            require_approval: 'never',
          },
        ],
        stream: true,
      },
      { headers: { 'x-calltape-session': 'responses-run' } },
    );
    let events = 0;
    for await (const _event of stream) events++;
    expect(events).toBeGreaterThan(10);
    const anthropic = new Anthropic({ apiKey, baseURL: proxy.url, maxRetries: 0 });
    const message = await anthropic.messages.create(
      {
        model: 'claude-sonnet-4-20250514',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'What does the PDF say about AI?' }],
      },
      { headers: { 'x-calltape-session': 'anthropic-run' } },
    );
    expect(message.content.map((block) => block.type)).toContain('web_fetch_tool_result');
    await proxy.close();
    const store = new SqliteStore(cassette, { readonly: true });
    trajectories = new Map(
      buildTrajectories(store.interactions()).map((run) => [run.sessionId, run]),
    );
    store.close();
  });

  afterAll(async () => {
    await upstream.close();
  });

  it('reads the streamed mcp_call items back from the cassette as hosted calls on their server, with results', () => {
    const run = trajectories.get('responses-run');
    expect(
      run?.calls.map((call) => [call.name, call.hosted, call.result?.isError, call.complete]),
    ).toEqual([
      ['web_search_exa', { kind: 'mcp_call', server: 'dmcp' }, false, true],
      ['web_search_exa', { kind: 'mcp_call', server: 'dmcp' }, false, true],
    ]);
    expect(run?.counts.calls).toBe(2);
  });

  it('lets a trajectory case expect a hosted call with its arguments, and forbid one', async () => {
    const run = trajectories.get('responses-run') as Trajectory;
    const expected = await scoreTrajectory(
      {
        expect: { calls: [{ tool: 'web_search_exa', arguments: { numResults: 5 } }], max_steps: 2 },
        never: ['code_interpreter'],
      },
      run,
    );
    expect(expected.pass).toBe(true);
    const forbidden = await scoreTrajectory({ never: ['web_search_exa'] }, run);
    expect(forbidden).toMatchObject({ pass: false, reasons: ['forbidden_call'] });
  });

  it('fails the step-status checks on a hosted call the provider reports as failed', async () => {
    const run = trajectories.get('anthropic-run') as Trajectory;
    expect(run.calls.map((call) => [call.name, call.hosted?.kind, call.result])).toEqual([
      ['web_fetch', 'server_tool_use', { text: 'unavailable', isError: true }],
    ]);
    const scored = await scoreTrajectory(
      { expect: { calls: ['web_fetch'], max_failed_calls: 0, must_succeed: ['web_fetch'] } },
      run,
    );
    expect(scored.pass).toBe(false);
    expect(scored.reasons).toEqual(['too_many_failed_calls', 'tool_failed']);
  });

  it('lists the hosted calls in calltape calls, with their server and outcome', () => {
    const listed = runCli(['calls', '--cassette', cassette, '--json']);
    expect(listed.status).toBe(0);
    const lines = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      lines.map((line) => [
        line['kind'],
        line['hosted_kind'],
        line['server'],
        line['name'],
        line['failed'],
      ]),
    ).toEqual([
      ['hosted', 'mcp_call', 'dmcp', 'web_search_exa', false],
      ['hosted', 'mcp_call', 'dmcp', 'web_search_exa', false],
      ['hosted', 'server_tool_use', null, 'web_fetch', true],
    ]);
    const table = runCli(['calls', '--cassette', cassette]);
    expect(table.stdout).toContain('3 hosted tool call(s), run by the provider');
    expect(table.stdout).toContain('dmcp');
  });

  it('lists a server_tool_use once on a cassette recorded before hosted calls were told apart', () => {
    // Earlier versions stored the Anthropic server_tool_use as one of the model's own calls too.
    const old = join(temporaryFolder(), 'old.sqlite');
    copyFileSync(cassette, old);
    const db = new Database(old);
    const hosted = JSON.parse(
      runCli(['calls', '--cassette', cassette, '--json']).stdout.trim().split('\n')[2] ?? '{}',
    ) as {
      interaction_id: string;
      session_id: string;
      call_id: string;
    };
    db.prepare(
      `INSERT INTO tool_calls (interaction_id, choice, position, session_id, call_id, call_index, name, arguments_raw, arguments_json, parse_error, complete)
       VALUES (?, 0, 99, ?, ?, 0, 'web_fetch', '{}', '{}', NULL, 1)`,
    ).run(hosted.interaction_id, hosted.session_id, hosted.call_id);
    db.close();
    const listed = runCli(['calls', '--cassette', old, '--json']).stdout.trim().split('\n');
    expect(listed.map((line) => (JSON.parse(line) as { kind?: string }).kind ?? 'model')).toEqual([
      'hosted',
      'hosted',
      'hosted',
    ]);
  });
});
