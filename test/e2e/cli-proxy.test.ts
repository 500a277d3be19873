import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/cassette/sqlite/sqlite-store.js';
import { packageRoot } from '../../src/package-root.js';
import { startCliProxy, runCli, type CliProxy } from '../support/cli.js';
import { chatCompletion, chatCompletionChunks, encodeSse } from '../support/openai-chat-chunks.js';
import { seededRandom } from '../support/random.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import { temporaryFolder } from '../support/test-proxy.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function upstreamFor(
  script: Parameters<typeof startScriptedUpstream>[0],
): Promise<ScriptedUpstream> {
  const upstream = await startScriptedUpstream(script);
  cleanups.push(() => upstream.close());
  return upstream;
}

async function proxyFor(
  upstream: ScriptedUpstream,
  cassette: string,
  extra: string[] = [],
): Promise<CliProxy> {
  const proxy = await startCliProxy([
    '--upstream',
    upstream.url,
    '--cassette',
    cassette,
    '--log-level',
    'error',
    ...extra,
  ]);
  cleanups.push(() => {
    proxy.child.kill('SIGKILL');
  });
  return proxy;
}

const slowTurn = (seed: number): string =>
  encodeSse(
    chatCompletionChunks(
      {
        toolCalls: [
          {
            name: 'lookup',
            arguments: `{"id":${seed},"query":"a long enough argument string to stream in many pieces"}`,
          },
        ],
      },
      seededRandom(seed),
    ),
  );

describe('calltape proxy (CLI)', () => {
  it('prints the base URL, answers /healthz, and exits 0 on SIGTERM after finishing in-flight streams', async () => {
    const upstream = await upstreamFor(() => ({ kind: 'sse', body: slowTurn(1), gapMs: 15 }));
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const proxy = await proxyFor(upstream, cassette);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);

    const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
    const stream = client.chat.completions.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
    });
    await new Promise<void>((resolve) => stream.once('chunk', () => resolve()));
    proxy.child.kill('SIGTERM');
    const final = await stream.finalChatCompletion();
    expect(
      final.choices[0]?.message.tool_calls?.[0]?.type === 'function' &&
        final.choices[0].message.tool_calls[0].function.name,
    ).toBe('lookup');
    expect(await proxy.exited).toBe(0);
    // New connections are refused once it stopped.
    await expect(fetch(`${proxy.url}/healthz`)).rejects.toThrow();
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.toolCalls().map((call) => [call.name, call.complete])).toEqual([['lookup', true]]);
    store.close();
  });

  it('exits 0 on SIGINT (Ctrl-C) too, with what it captured written', async () => {
    const upstream = await upstreamFor([
      { kind: 'json', body: chatCompletion({ toolCalls: [{ name: 'lookup', arguments: '{}' }] }) },
    ]);
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const proxy = await proxyFor(upstream, cassette);
    await new OpenAI({
      apiKey: 'sk-x',
      baseURL: proxy.baseUrl,
      maxRetries: 0,
    }).chat.completions.create({ model: 'm', messages: [] });
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toBe(0);
    const store = new SqliteStore(cassette, { readonly: true });
    expect(store.toolCalls().map((call) => call.name)).toEqual(['lookup']);
    store.close();
  });

  it('leaves a readable store holding every completed interaction when SIGKILLed mid-burst', async () => {
    let calls = 0;
    // Every third request streams slowly, so it is in flight when the kill lands.
    const upstream = await upstreamFor(() => {
      const n = calls++;
      return n % 3 === 2
        ? { kind: 'sse', body: slowTurn(n), gapMs: 200 }
        : {
            kind: 'json',
            body: chatCompletion({ toolCalls: [{ name: 'lookup', arguments: `{"id":${n}}` }] }),
          };
    });
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const proxy = await proxyFor(upstream, cassette);
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
    const completed: number[] = [];
    const requests = Array.from({ length: 30 }, (_, i) =>
      client.chat.completions
        .create({
          model: 'm',
          messages: [{ role: 'user', content: `request ${i}` }],
          stream: false,
        })
        .then(() => completed.push(i))
        .catch(() => undefined),
    );
    const readRows = (): number => {
      const db = new Database(cassette, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM interactions').get() as { n: number }).n;
      } catch {
        return 0;
      } finally {
        db.close();
      }
    };
    // Wait until the fast answers are both received by their clients and committed, then kill.
    while (completed.length < 20 || readRows() < 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const committed = readRows();
    proxy.child.kill('SIGKILL');
    expect(await proxy.exited).toBe('SIGKILL');
    await Promise.all(requests);

    const db = new Database(cassette, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db
      .prepare(
        'SELECT i.id, i.status, count(t.name) AS calls FROM interactions i LEFT JOIN tool_calls t ON t.interaction_id = i.id GROUP BY i.id',
      )
      .all() as { status: string; calls: number }[];
    db.close();
    expect(rows.length).toBeGreaterThanOrEqual(committed);
    expect(rows.length).toBeLessThan(30);
    for (const row of rows) expect(row).toMatchObject({ status: 'complete', calls: 1 });
  });

  it('exits 2 naming the file and field of an invalid configuration', () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'bad.json'), JSON.stringify({ port: -1 }));
    // Run in the configuration's folder: a file outside the project would not have its values quoted.
    const result = runCli(['proxy', '--config', join(folder, 'bad.json')], { cwd: folder });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `CONFIG_INVALID: ${join(folder, 'bad.json')}: /port: must be >= 0 (got -1)`,
    );
    const fromEnv = runCli(['proxy'], { env: { CALLTAPE_MODE: 'bogus' } });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain(
      'environment: CALLTAPE_MODE: must be one of ["record","replay","auto","diff","passthrough"] (got "bogus")',
    );
  });

  it('exits 2 naming the mock file, the mock and the field of a bad mock, before listening', () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'bank.yaml'),
      'tools: { get_balance: { type: object, properties: { account_id: { type: string } } } }\nmocks:\n  - tool: get_balance\n    result: { account: "{{args.acount}}" }\n',
    );
    const result = runCli([
      'proxy',
      '--port',
      '0',
      '--cassette',
      join(folder, 'c.sqlite'),
      '--mocks',
      join(folder, 'bank.yaml'),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `CONFIG_INVALID: ${join(folder, 'bank.yaml')}: mocks[0] (get_balance): result: the template names {{args.acount}}, but get_balance has no argument acount (it has: account_id)`,
    );
    const strict = runCli(['proxy', '--strict-tools', '--mocks', join(folder, 'missing.yaml')], {
      env: { CALLTAPE_STRICT_TOOLS: 'maybe' },
    });
    expect(strict.status).toBe(2);
    expect(strict.stderr).toContain(
      'environment: CALLTAPE_STRICT_TOOLS: must be boolean (got "maybe")',
    );
  });

  it('exits 3 when the port is taken', async () => {
    const upstream = await upstreamFor([]);
    const first = await proxyFor(upstream, join(temporaryFolder(), 'c.sqlite'));
    const port = new URL(first.url).port;
    const result = runCli([
      'proxy',
      '--port',
      port,
      '--cassette',
      join(temporaryFolder(), 'd.sqlite'),
    ]);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('LISTEN_FAILED');
  });
});

describe('calltape calls', () => {
  it('lists captured calls as a table, or as JSON lines filtered by session', async () => {
    const upstream = await upstreamFor(() => ({
      kind: 'json',
      body: chatCompletion({
        toolCalls: [
          { name: 'get_weather', arguments: '{"city":"Paris"}' },
          { name: 'broken', arguments: '{"x":' },
        ],
      }),
    }));
    const cassette = join(temporaryFolder(), 'c.sqlite');
    const proxy = await proxyFor(upstream, cassette);
    await new OpenAI({
      apiKey: 'sk-x',
      baseURL: `${proxy.url}/s/alpha/v1`,
      maxRetries: 0,
    }).chat.completions.create({ model: 'gpt-4o-mini', messages: [] });
    await new OpenAI({
      apiKey: 'sk-x',
      baseURL: `${proxy.url}/s/beta/v1`,
      maxRetries: 0,
    }).chat.completions.create({ model: 'gpt-4o-mini', messages: [] });
    proxy.child.kill('SIGTERM');
    await proxy.exited;

    const table = runCli(['calls', '--cassette', cassette]);
    expect(table.status).toBe(0);
    expect(table.stdout).toContain('get_weather');
    expect(table.stdout).toContain('{"city":"Paris"}');
    expect(table.stdout).toContain('invalid JSON');
    expect(table.stdout).toContain('4 tool call(s)');
    // The cassette may be named as the command's argument too, as `cassettes show` takes it.
    expect(runCli(['calls', cassette]).stdout).toBe(table.stdout);
    // Given both ways, spelled differently but naming the same file: one cassette.
    const respelled = `${dirname(cassette)}/./${basename(cassette)}`;
    expect(runCli(['calls', cassette, '--cassette', respelled]).stdout).toBe(table.stdout);

    const json = runCli(['calls', '--cassette', cassette, '--session', 'beta', '--json']);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      lines.map((line) => [
        line['session_id'],
        line['name'],
        line['arguments'],
        line['parse_error'] !== null,
      ]),
    ).toEqual([
      ['beta', 'get_weather', { city: 'Paris' }, false],
      ['beta', 'broken', null, true],
    ]);
  });

  it('reads a bare --cassette name as recordings/<name>.sqlite, as every other command does, and names the nearest on a typo', async () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'recordings'));
    copyFileSync(
      join(packageRoot, 'recordings/bank-demo.sqlite'),
      join(folder, 'recordings/bank.sqlite'),
    );
    const typo = runCli(['proxy', '--mode', 'replay', '--cassette', 'bnak'], { cwd: folder });
    expect(typo.status).toBe(3);
    expect(typo.stderr).toContain('recordings/bnak.sqlite: no such cassette to replay');
    expect(typo.stderr).toContain('Did you mean recordings/bank.sqlite?');
    const proxy = await startCliProxy(['--mode', 'replay', '--cassette', 'bank'], { cwd: folder });
    expect(proxy.stdout()).toContain('mode replay · cassette recordings/bank.sqlite');
    proxy.child.kill('SIGTERM');
    await proxy.exited;
  });

  it('exits 2 when the cassette does not exist', () => {
    const result = runCli(['calls', '--cassette', '/nonexistent/c.sqlite']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('/nonexistent/c.sqlite: no such cassette');
    expect(runCli(['calls', '/nonexistent/c.sqlite']).stderr).toContain(
      '/nonexistent/c.sqlite: no such cassette',
    );
  });

  it('exits 2 when given two different cassettes, one as the argument and one as --cassette', () => {
    const result = runCli(['calls', 'one', '--cassette', 'two']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('two cassettes given (one and --cassette two)');
  });
});

describe('several writers on one cassette', () => {
  it('keeps every interaction when two proxies record into the same file at once', async () => {
    const upstream = await upstreamFor((request) => ({
      kind: 'json',
      body: chatCompletion({
        toolCalls: [{ name: 'lookup', arguments: request.body.length.toString() }],
      }),
    }));
    const cassette = join(temporaryFolder(), 'shared.sqlite');
    const proxies = await Promise.all([proxyFor(upstream, cassette), proxyFor(upstream, cassette)]);
    await Promise.all(
      proxies.flatMap((proxy, p) => {
        const client = new OpenAI({ apiKey: 'sk-x', baseURL: proxy.baseUrl, maxRetries: 0 });
        return Array.from({ length: 25 }, (_, i) =>
          client.chat.completions.create({
            model: 'm',
            messages: [{ role: 'user', content: `proxy ${p} request ${i}` }],
          }),
        );
      }),
    );
    for (const proxy of proxies) proxy.child.kill('SIGTERM');
    expect(await Promise.all(proxies.map((proxy) => proxy.exited))).toEqual([0, 0]);
    const db = new Database(cassette, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT count(*) AS n FROM interactions').get() as { n: number }).n).toBe(
      50,
    );
    expect(
      (
        db.prepare('SELECT count(DISTINCT request_key) AS n FROM interactions').get() as {
          n: number;
        }
      ).n,
    ).toBe(50);
    db.close();
  });
});
