import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { exportCassette, importCassette } from '../../src/cassette/sqlite/cassette-files.js';
import { runCli } from '../support/cli.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

function tableRows(cassette: string): Record<string, unknown[]> {
  const db = new Database(cassette, { readonly: true });
  try {
    return {
      interactions: db
        .prepare('SELECT * FROM interactions ORDER BY seq')
        .all()
        .map((row) => ({ ...(row as Record<string, unknown>), seq: undefined })),
      tool_calls: db
        .prepare('SELECT * FROM tool_calls ORDER BY interaction_id, choice, position')
        .all(),
      sessions: db.prepare('SELECT * FROM sessions ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
}

function folderBytes(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
  );
}

describe('cassette export and import', () => {
  it('round-trips losslessly and deterministically: streams, JSON, gzip, errors, sessions', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'sse',
        body: encodeSse(
          chatCompletionChunks(
            { text: 'Hi ☃', toolCalls: [{ name: 'get_weather', arguments: '{"city":"Zürich"}' }] },
            seededRandom(4),
            { includeUsage: true },
          ),
        ),
        split: { seed: 2, maxPiece: 13 },
      },
      {
        kind: 'json',
        body: chatCompletion({ toolCalls: [{ name: 'broken', arguments: '{"x":' }] }),
      },
      { kind: 'json', body: chatCompletion({ text: 'zipped' }), gzip: true },
      {
        kind: 'json',
        status: 429,
        body: { error: { message: 'slow down', type: 'requests', param: null, code: null } },
      },
    ]);
    const cassette = join(temporaryFolder(), 'source.sqlite');
    const proxy = await startTestProxy(upstream.url, { cassette });
    const client = new OpenAI({
      apiKey: 'sk-x',
      baseURL: `${proxy.url}/s/review/v1`,
      maxRetries: 0,
    });
    await client.chat.completions
      .stream({
        model: 'm',
        messages: [{ role: 'user', content: 'Weather?' }],
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Broken?' }],
    });
    await fetch(`${proxy.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: '{"model":"m","messages":[]}',
    });
    await client.chat.completions.create({ model: 'm', messages: [] }).catch(() => undefined);
    await proxy.close();
    await upstream.close();

    const first = join(temporaryFolder(), 'export');
    expect(exportCassette(cassette, first)).toBe(4);
    const imported = join(temporaryFolder(), 'imported.sqlite');
    expect(importCassette(first, imported)).toBe(4);
    expect(tableRows(imported)).toEqual(tableRows(cassette));
    const second = join(temporaryFolder(), 'export-again');
    exportCassette(imported, second);
    expect(folderBytes(second)).toEqual(folderBytes(first));

    // Readable: structured JSON request bodies, the SSE stream as a text block, gzip as base64.
    const texts = Object.entries(folderBytes(first))
      .filter(([name]) => !name.includes('timings') && name !== 'cassette.yaml')
      .map(([, text]) => text);
    expect(texts[0]).toContain('content: Weather?');
    expect(texts[0]).toMatch(
      /response_body:\n {2}text: \|\+?\n {4}data: \{"id":"chatcmpl-scripted"/,
    );
    expect(texts[2]).toMatch(/response_body:\n {2}base64: /);
  });

  it('prints a cassette for git textconv and lists cassettes', async () => {
    const upstream = await startScriptedUpstream([
      {
        kind: 'json',
        body: chatCompletion({
          toolCalls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        }),
      },
    ]);
    const folder = temporaryFolder();
    const proxy = await startTestProxy(upstream.url, {
      cassette: join(folder, 'recordings', 'weather.sqlite'),
    });
    await new OpenAI({
      apiKey: 'sk-x',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Oslo?' }] });
    await proxy.close();
    await upstream.close();
    const shown = runCli(['cassettes', 'show', 'weather'], { cwd: folder });
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('name: get_weather');
    const listed = runCli(['cassettes', 'ls'], { cwd: folder });
    expect(listed.stdout).toMatch(/weather\s*│\s*1\s*│\s*1\s*│\s*1\s*│\s*0\s*│/);
    const exported = runCli(['cassettes', 'export', 'weather'], { cwd: folder });
    expect(exported.stdout).toContain('exported 1 interaction(s) to recordings/weather');
    const again = runCli(['cassettes', 'import', 'recordings/weather', '--out', 'weather'], {
      cwd: folder,
    });
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('already exists');
    // Commands that change a cassette never create one by accident.
    for (const args of [
      ['cassettes', 'prune', 'nothing'],
      ['cassettes', 'merge', 'weather', 'nothing'],
      ['cassettes', 'merge', 'nothing', 'weather'],
    ]) {
      const missing = runCli(args, { cwd: folder });
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain('nothing.sqlite: no such cassette');
    }
    expect(existsSync(join(folder, 'recordings', 'nothing.sqlite'))).toBe(false);
  });
});
