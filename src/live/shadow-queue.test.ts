import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capturedChatRound } from '../../test/support/captured-round.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import Database from 'better-sqlite3';
import type { CallVerdict } from './verdict-types.js';
import { loadPolicies } from './load-policies.js';
import { ShadowQueue } from './shadow-queue.js';

const folder = mkdtempSync(join(tmpdir(), 'calltape-shadow-queue-'));
writeFileSync(join(folder, 'policies.yaml'), 'policies:\n  - { id: schema, kind: schema }\n');
writeFileSync(
  join(folder, 'guarded.yaml'),
  'policies:\n  - { id: schema, kind: schema }\n  - { id: no-close, kind: never, tools: [close_account] }\n',
);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A whole answer cut into `chunks` pieces, as a stream arrives: each piece is an object to clone. */
function roundOf(id: string, chunks: number): CapturedRound {
  const round = capturedChatRound({ id });
  const body = round.upstream?.chunks[0] ?? new Uint8Array();
  const size = Math.ceil(body.length / chunks);
  const pieces = Array.from({ length: chunks }, (_, at) =>
    body.subarray(at * size, (at + 1) * size),
  );
  return {
    ...round,
    upstream: round.upstream && {
      ...round.upstream,
      chunks: pieces,
      chunkTimes: pieces.map((_, at) => at),
    },
  };
}

/** Offers every round at once, lets the worker score them all, and returns how many batches it was handed. */
async function batchesFor(name: string, rounds: readonly CapturedRound[]): Promise<number> {
  let batches = 0;
  const queue = new ShadowQueue(
    {
      database: join(folder, `${name}.sqlite`),
      retention: { maxRows: null, maxAgeMs: null },
      redactHeaders: [],
      bodyPatterns: [],
      builtinPatterns: true,
      maxDecodedBytes: 1 << 20,
      policies: loadPolicies(join(folder, 'policies.yaml'), folder),
    },
    10_000,
    { calls: () => void batches++, sessions: () => undefined, error: () => undefined },
  );
  for (const round of rounds) queue.offer(round);
  await queue.close(10_000);
  expect(queue.dropped).toBe(0);
  return batches;
}

describe('ShadowQueue batches', () => {
  it('hands the worker at most 256 rounds at once', async () => {
    const rounds = Array.from({ length: 300 }, (_, at) => roundOf(`w${at}`, 1));
    expect(await batchesFor('whole', rounds)).toBe(2);
  });

  it('and at most about 1,024 response chunks, so one postMessage of streams stays short on the proxy thread', async () => {
    // 49 rounds of 21 chunks reach 1,024: batches of 49, 49 and 2.
    const rounds = Array.from({ length: 100 }, (_, at) => roundOf(`s${at}`, 21));
    expect(await batchesFor('streams', rounds)).toBe(3);
  });
});

/** A Chat Completions round declaring `close_account` whose answer calls each of `calls`. */
function callingRound(id: string, calls: readonly string[]): CapturedRound {
  return capturedChatRound({
    id,
    requestBody: JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: 'close it' }],
      tools: [
        { type: 'function', function: { name: 'close_account', parameters: { type: 'object' } } },
      ],
    }),
    responseBody: JSON.stringify({
      id: `c-${id}`,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: calls.map((name, index) => ({
              id: `${id}_${index}`,
              type: 'function',
              function: { name, arguments: '{}' },
            })),
          },
        },
      ],
    }),
  });
}

describe('issue 30: one batch on the scoring thread', () => {
  it('scores a forbidden call beside constructor, toString and hasOwnProperty calls, and stores every verdict', async () => {
    const database = join(folder, 'inherited.sqlite');
    const calls: CallVerdict[] = [];
    const errors: string[] = [];
    const queue = new ShadowQueue(
      {
        database,
        retention: { maxRows: null, maxAgeMs: null },
        redactHeaders: [],
        bodyPatterns: [],
        builtinPatterns: true,
        maxDecodedBytes: 1 << 20,
        policies: loadPolicies(join(folder, 'guarded.yaml'), folder),
      },
      100,
      {
        calls: (verdicts) => void calls.push(...verdicts),
        sessions: () => undefined,
        error: (message) => void errors.push(message),
      },
    );
    queue.offer(callingRound('a', ['constructor', 'close_account']));
    queue.offer(callingRound('b', ['toString', 'hasOwnProperty', 'close_account']));
    await queue.close(10_000);
    expect(errors).toEqual([]);
    const seen = calls.map((call) => `${call.tool}:${call.verdict}`);
    expect(seen).toEqual([
      'constructor:fail',
      'close_account:fail',
      'toString:fail',
      'hasOwnProperty:fail',
      'close_account:fail',
    ]);
    const db = new Database(database, { readonly: true });
    const forbidden = db
      .prepare("SELECT tool FROM failures WHERE reason = 'forbidden_call' ORDER BY rowid")
      .pluck()
      .all();
    db.close();
    expect(forbidden).toEqual(['close_account', 'close_account']);
  });
});
