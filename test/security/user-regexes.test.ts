import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { chooseAnswer } from '../../src/mocks/choose-answer.js';
import { loadMocks } from '../../src/mocks/load-mocks.js';
import type { MockSpec } from '../../src/mocks/mock-types.js';
import { matchValue } from '../../src/scoring/match/match-value.js';
import { maxPatternInputChars } from '../../src/scoring/match/user-pattern.js';
import { packageRoot } from '../../src/package-root.js';
import { temporaryFolder } from '../support/test-proxy.js';

/**
 * Runs `body` (an async function body with `redact` and `canonical`, the built modules) on a
 * worker thread. A backtracking engine would not answer for hours, and blocked the thread it ran
 * on, so a deadline on this thread ends the worker and fails the test instead of hanging it.
 */
function offThread(body: string): Promise<unknown> {
  const modules = {
    redact: pathToFileURL(join(packageRoot, 'dist/src/cassette/redact.js')).href,
    canonical: pathToFileURL(join(packageRoot, 'dist/src/cassette/canonical-request.js')).href,
  };
  const code = `const { parentPort, workerData } = require('node:worker_threads');
(async () => { const redact = await import(workerData.redact); const canonical = await import(workerData.canonical); ${body} })().then((value) => parentPort.postMessage(value));`;
  const worker = new Worker(code, { eval: true, workerData: modules });
  return new Promise<unknown>((resolve, reject) => {
    const deadline = setTimeout(
      () =>
        void worker
          .terminate()
          .then(() =>
            reject(new Error('the pattern did not finish: it ran on a backtracking engine')),
          ),
      20_000,
    );
    worker.once('message', (value) => {
      clearTimeout(deadline);
      void worker.terminate().then(() => resolve(value));
    });
    worker.once('error', reject);
  });
}

describe('user regexes', () => {
  it('a catastrophic pattern in a mock condition answers at once (linear-time engine), not after 2^n steps', () => {
    // With a backtracking engine this condition on 40 characters takes longer than any test timeout.
    const mock: MockSpec = {
      tool: 'lookup',
      when: [
        {
          arguments: { id: '(a+)+$' },
          rules: { id: { matching_strategy: 'regex' } },
          result: 'matched',
        },
      ],
      otherwise: { result: 'no match' },
    };
    const answer = chooseAnswer(
      mock,
      { id: 'c1', name: 'lookup', argumentsRaw: JSON.stringify({ id: `${'a'.repeat(40)}!` }) },
      { session: 's', occurrence: 0 },
    );
    expect(answer.result).toBe('no match');
    expect(
      chooseAnswer(
        mock,
        { id: 'c2', name: 'lookup', argumentsRaw: JSON.stringify({ id: 'aaaa' }) },
        { session: 's', occurrence: 0 },
      ).result,
    ).toBe('matched');
  });

  it('keeps JavaScript flag meanings and caps the input length', () => {
    expect(matchValue('regex', 'ab.c', 'AB\nC', { flags: 'is' }).matched).toBe(true);
    expect(matchValue('regex', 'ab.c', 'AB\nC', { flags: 'i' }).matched).toBe(false);
    const long = matchValue('regex', 'a*', 'a'.repeat(maxPatternInputChars + 1), {});
    expect([long.matched, long.detail]).toEqual([
      false,
      `the value is longer than ${maxPatternInputChars} characters, past what a pattern is run on`,
    ]);
  });

  it('refuses at load a pattern the engine cannot run, naming the file and field', () => {
    const folder = temporaryFolder();
    const file = join(folder, 'm.yaml');
    writeFileSync(
      file,
      'mocks:\n  - tool: t\n    when:\n      - arguments: { a: "(?=x)x" }\n        rules: { a: { matching_strategy: regex } }\n        result: 1\n',
    );
    expect(() => loadMocks([file], folder)).toThrow(
      /m\.yaml: mocks\[0\] \(t\): when\[0\]\.rules\.a: the regex does not compile: .*RE2 syntax/,
    );
  });

  it('a catastrophic redact.bodyPatterns or match.normalisers pattern from the config runs in linear time, on every body', async () => {
    const evil = `${'a'.repeat(40)}!`;
    const result = await offThread(`
      const redactor = redact.createRedactor([], [{ pattern: '(a+)+$', flags: '', replacement: 'X' }]);
      const bytes = new TextEncoder().encode(${JSON.stringify(JSON.stringify({ content: evil }))});
      const rules = { ignorePaths: [], normalisers: [{ pattern: '(a+)+$', replacement: '<a>' }] };
      return {
        text: redactor.text(${JSON.stringify(evil)}),
        whole: redactor.text('aaaa'),
        chunks: new TextDecoder().decode(redactor.chunks(bytes, [5, bytes.length]).body),
        normalised: canonical.canonicalRequest('POST', '/v1/chat/completions', {}, { a: ${JSON.stringify(evil)}, b: 'aaa' }, rules).body,
      };`);
    expect(result).toEqual({
      text: evil,
      whole: 'X',
      chunks: JSON.stringify({ content: evil }),
      normalised: { a: evil, b: '<a>' },
    });
  });
});
