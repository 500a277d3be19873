import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { packageRoot } from '../../src/package-root.js';
import { loadSuite } from '../../src/suites/load-suite.js';
import { runCliAsync } from '../support/cli.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.js';
import {
  bankModel,
  bankPolicies,
  bankTools,
  eventually,
  writePolicies,
} from '../support/shadow-bank.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';

const apiKey = 'sk-live-promote-0123456789abcdefSECRET';

/** Every file under a folder, as text (SQLite files too, so a secret in a blob shows). */
function everyFile(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, readFileSync(path).toString('latin1'));
    }
  return files;
}

/** The agent: asks once (streamed), runs the tool itself, sends the result back, and reads the answer. */
async function bankAgent(client: OpenAI, words: string, session: string): Promise<void> {
  const headers = { 'x-calltape-session': session };
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a bank agent.' },
    { role: 'user', content: words },
  ];
  for (let turn = 0; turn < 3; turn++) {
    const stream = await client.chat.completions.create(
      { model: 'gpt-test', messages, tools: bankTools, stream: true },
      { headers },
    );
    const calls = new Map<number, { id: string; name: string; arguments: string }>();
    for await (const chunk of stream)
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
        calls.set(delta.index, {
          id: delta.id ?? call.id,
          name: delta.function?.name ?? call.name,
          arguments: call.arguments + (delta.function?.arguments ?? ''),
        });
      }
    if (calls.size === 0) return;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [...calls.values()].map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of calls.values())
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify({ done: true, tool: call.name, reference: `REF-${turn}` }),
      });
  }
}

/** `calltape cases promote --failing`: every session of the database that failed within `since`. */
function promoteFailing(
  out: string,
  from: string,
  database: string,
  since: string,
  cwd: string,
): ReturnType<typeof runCliAsync> {
  return runCliAsync(
    [
      'cases',
      'promote',
      '--out',
      out,
      '--cassette',
      from,
      '--shadow-db',
      database,
      '--failing',
      '--since',
      since,
    ],
    { cwd },
  );
}

/** Shadow-scores the bank example's cassette into `database`, as live shadow scoring would. */
function scoreBankDemo(database: string, cwd: string): ReturnType<typeof runCliAsync> {
  return runCliAsync(
    [
      'score',
      '--cassette',
      join(packageRoot, 'recordings/bank-demo.sqlite'),
      '--policies',
      join(packageRoot, 'config/policies/bank.yaml'),
      '--shadow-db',
      database,
    ],
    { cwd },
  );
}

let upstream: ScriptedUpstream;
let folder: string;
let cassette: string;
let shadowDb: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream(bankModel);
  folder = temporaryFolder();
  cassette = join(folder, 'live.sqlite');
  shadowDb = join(folder, 'shadow.sqlite');
  const proxy = await startTestProxy(upstream.url, {
    mode: 'record',
    cassette,
    shadow: {
      ...defaultConfig.shadow,
      // A session ends after idle_timeout; on a crowded machine the agent's turns can be further
      // apart than the shared 150 ms, which would split one session into two rows.
      policies: writePolicies(folder, bankPolicies('', '2s')),
      database: shadowDb,
    },
  });
  const client = new OpenAI({ apiKey, baseURL: proxy.baseUrl, maxRetries: 0 });
  await bankAgent(client, 'transfer big please', 'big');
  await bankAgent(client, 'transfer 120 euros', 'fine');
  // Shadow scoring judges a session once it goes idle, off the response path.
  await eventually(() => {
    const db = new Database(shadowDb, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(2);
    } finally {
      db.close();
    }
  });
  await proxy.close();
});

afterAll(async () => {
  await upstream.close();
});

describe('calltape cases promote', () => {
  it('promotes the failing session of a shadow-scoring database, then one by id; once accepted they replay offline and pass', async () => {
    const work = temporaryFolder();
    const suite = join(work, 'promoted.yaml');
    const requestsBefore = upstream.received.length;
    const failing = await promoteFailing(suite, cassette, shadowDb, '1h', work);
    expect(failing.stderr).toBe('');
    expect(failing.status).toBe(0);
    expect(failing.stdout).toContain(
      'promoted 1 session(s) to draft cases (review: pending) in promoted.yaml',
    );
    expect(failing.stdout).toContain(
      'transfer-big-please  session big · 2 round trip(s) · mocks/promoted/transfer-big-please.yaml',
    );
    expect(failing.stdout).toContain('their tool mocks are in mocks/promoted/');
    expect(failing.stdout).toMatch(/failed: transfer-limits\/out_of_range: /);
    const byId = await runCliAsync(
      ['cases', 'promote', '--out', suite, '--cassette', cassette, '--session', 'fine'],
      { cwd: work },
    );
    expect(byId.stderr).toBe('');
    expect(byId.status).toBe(0);
    // Promotion replays against the session's own answers: the real model is never asked.
    expect(upstream.received.length).toBe(requestsBefore);

    const drafts = loadSuite(suite, work).drafts;
    // Named from their prompts: "transfer big please", "transfer 120 euros".
    expect(drafts.map((draft) => draft.test_id)).toEqual([
      'transfer-big-please',
      'transfer-120-euros',
    ]);
    const big = drafts[0];
    expect(big).toMatchObject({
      prompt: 'transfer big please',
      messages: [
        { role: 'system', content: 'You are a bank agent.' },
        { role: 'user', content: 'transfer big please' },
      ],
      expect: {
        mode: 'exact',
        calls: [
          {
            tool: 'transfer_money',
            arguments: { amount: 25000, currency: 'USD', to: 'ACCT-12345' },
          },
        ],
      },
      review: 'pending',
      provenance: {
        source: 'promoted',
        session: 'big',
        cassette: '../' + cassette.split('/').slice(-2).join('/'),
        failures: [expect.stringMatching(/^transfer-limits\/out_of_range: /)],
      },
    });
    expect(readFileSync(join(work, 'mocks/promoted/transfer-big-please.yaml'), 'utf8')).toContain(
      `result: '{"done":true,"tool":"transfer_money","reference":"REF-0"}'`,
    );
    // Only the two promoted sessions' round trips are in the slice, under the cases' ids.
    const slice = new Database(join(work, 'recordings/promoted.sqlite'), { readonly: true });
    expect(
      slice
        .prepare('SELECT session_id, count(*) FROM interactions GROUP BY 1 ORDER BY 1')
        .raw()
        .all(),
    ).toEqual([
      ['transfer-120-euros', 2],
      ['transfer-big-please', 2],
    ]);
    slice.close();
    // The agent's key is in none of it.
    for (const [path, text] of everyFile(work)) expect(text, path).not.toContain(apiKey);

    const review = await runCliAsync(['review', suite, '--accept', 'all'], { cwd: work });
    expect(review.status, review.stderr).toBe(0);
    const test = await runCliAsync(
      ['test', suite, '--mode', 'replay', '--upstream', 'http://127.0.0.1:9'],
      { cwd: work },
    );
    expect(test.stdout).toContain('PASSED');
    expect(test.status).toBe(0);
    expect(upstream.received.length).toBe(requestsBefore);

    // The same session into another suite: the same name, its mock file in the folder asked for.
    const elsewhere = await runCliAsync(
      [
        'cases',
        'promote',
        '--out',
        'other/suite.yaml',
        '--cassette',
        cassette,
        '--session',
        'big',
        '--mocks-dir',
        'shared-mocks',
      ],
      { cwd: work },
    );
    expect(elsewhere.status, elsewhere.stderr).toBe(0);
    expect(elsewhere.stdout).toContain(
      'transfer-big-please  session big · 2 round trip(s) · ../shared-mocks/transfer-big-please.yaml',
    );
    expect(elsewhere.stdout).toContain('their tool mocks are in shared-mocks/');
    expect(existsSync(join(work, 'shared-mocks/transfer-big-please.yaml'))).toBe(true);
    const other = await runCliAsync(['review', 'other/suite.yaml', '--accept', 'all'], {
      cwd: work,
    });
    expect(other.status, other.stderr).toBe(0);
    const replayed = await runCliAsync(
      ['test', 'other/suite.yaml', '--mode', 'replay', '--upstream', 'http://127.0.0.1:9'],
      { cwd: work },
    );
    expect(replayed.stdout).toContain('PASSED');
  });

  it('promotes a session with hidden mock rounds from the bundled cassette', async () => {
    const work = temporaryFolder();
    const database = join(work, 'shadow.sqlite');
    const score = await scoreBankDemo(database, work);
    expect(score.status).toBe(1);
    copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), join(work, 'bank.sqlite'));
    const promoted = await promoteFailing('bank.yaml', './bank.sqlite', database, '3650d', work);
    expect(promoted.stderr).toBe('');
    expect(promoted.status).toBe(0);
    expect(promoted.stdout).toContain('promoted 3 session(s)');
    // TC-010's call breaks its tool's schema: as promoted, its expectation fails, and the output says so.
    expect(promoted.stdout).toMatch(
      /show-my-savings-balance-in-euros[^\n]*\n(?:[^\n]*\n)*?\s+note: as promoted, the case fails: /,
    );
    const review = await runCliAsync(
      [
        'review',
        'bank.yaml',
        '--accept',
        'please-wire-1-200-50-to-acme-corps-checking,search-for-refunds-from-apple-over-20-dollars',
      ],
      { cwd: work },
    );
    expect(review.status, review.stderr).toBe(0);
    const test = await runCliAsync(['test', 'bank.yaml', '--mode', 'replay'], { cwd: work });
    expect(test.stdout).toContain('PASSED');
    expect(test.status).toBe(0);
  });

  it('refuses an unknown session, cassette or shadow database by name, exits 2 and writes nothing', async () => {
    const work = temporaryFolder();
    const existing = join(work, 'suite.yaml');
    const original =
      '# kept as is\nmodel: gpt-other\ncases:\n  - test_id: a\n    prompt: hi\n    expected_tool: null\n';
    writeFileSync(existing, original);
    const promote = (args: readonly string[]): ReturnType<typeof runCliAsync> =>
      runCliAsync(['cases', 'promote', '--out', 'suite.yaml', ...args], { cwd: work });

    const unknownSession = await promote(['--cassette', cassette, '--session', 'nope']);
    expect(unknownSession.status).toBe(2);
    expect(unknownSession.stderr).toContain(
      `CONFIG_INVALID: ${cassette}: no session "nope" in this cassette (recent sessions: `,
    );
    const unknownCassette = await promote([
      '--cassette',
      join(work, 'missing.sqlite'),
      '--session',
      'big',
    ]);
    expect(unknownCassette.status).toBe(2);
    expect(unknownCassette.stderr).toContain(`${join(work, 'missing.sqlite')}: no such cassette`);
    const typo = temporaryFolder();
    copyFileSync(cassette, join(typo, 'live.sqlite'));
    const mistyped = await runCliAsync(
      ['cases', 'promote', '--out', 'suite.yaml', '--cassette', 'lvie.sqlite', '--session', 'big'],
      { cwd: typo },
    );
    expect(mistyped.status).toBe(2);
    expect(mistyped.stderr).toContain('Did you mean live.sqlite? To record it: calltape record');
    const unknownDatabase = await promote([
      '--cassette',
      cassette,
      '--shadow-db',
      join(work, 'none.sqlite'),
      '--failing',
    ]);
    expect(unknownDatabase.status).toBe(2);
    expect(unknownDatabase.stderr).toContain(
      `${join(work, 'none.sqlite')}: cannot open the shadow-scoring database`,
    );
    const unscored = await promote([
      '--cassette',
      cassette,
      '--shadow-db',
      shadowDb,
      '--session',
      'nope',
    ]);
    expect(unscored.status).toBe(2);
    expect(unscored.stderr).toContain(`${shadowDb}: shadow scoring never scored a session "nope"`);
    const neither = await promote(['--cassette', cassette]);
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain('give exactly one of --session <id> and --failing');
    // The suite's model differs from the session's: direct mode could not replay both.
    const otherModel = await promote(['--cassette', cassette, '--session', 'big']);
    expect(otherModel.status).toBe(2);
    expect(otherModel.stderr).toContain(
      `CONFIG_INVALID: ${existing}: session "big": it asked gpt-test, and the suite's cases ask gpt-other; direct mode sends one model`,
    );

    expect(readFileSync(existing, 'utf8')).toBe(original);
    expect(readdirSync(work).sort()).toEqual(['suite.yaml']);
    expect(existsSync(join(work, 'recordings'))).toBe(false);
  });

  it('a batch promote skips the sessions the cassette lacks, saying why, and exits 2 only when none could be promoted', async () => {
    const work = temporaryFolder();
    // Failing sessions of two cassettes in one shadow database: the live proxy's, then the bank example's.
    const mixed = join(work, 'mixed-shadow.sqlite');
    copyFileSync(shadowDb, mixed);
    const score = await scoreBankDemo(mixed, work);
    expect(score.status, score.stderr).toBe(1);
    const some = await promoteFailing('promoted.yaml', cassette, mixed, '3650d', work);
    expect(some.stderr).toBe('');
    expect(some.status).toBe(0);
    expect(some.stdout).toContain('promoted 1 session(s)');
    expect(some.stdout).toContain('transfer-big-please  session big');
    expect(some.stdout).toMatch(
      /skipped session TC-003: .*live\.sqlite: no session "TC-003" in this cassette/,
    );

    // None of them in the cassette given: nothing could be promoted, and the exit says so.
    copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), join(work, 'bank.sqlite'));
    const none = await promoteFailing('other.yaml', './bank.sqlite', shadowDb, '1h', work);
    expect(none.status).toBe(2);
    expect(none.stdout).toContain('other.yaml is unchanged');
    expect(none.stdout).toMatch(
      /skipped session big: .*bank\.sqlite: no session "big" in this cassette/,
    );
    expect(existsSync(join(work, 'other.yaml'))).toBe(false);

    // Run again, the batch finds only sessions promoted already: nothing left to do is no failure.
    const again = await promoteFailing('promoted.yaml', cassette, shadowDb, '1h', work);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(
      'skipped session big: already promoted (case "transfer-big-please")',
    );
  });
});
