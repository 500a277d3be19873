import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateArgs } from '../../examples/bank/generate/generate-args.js';
import { packageRoot } from '../../src/package-root.js';
import { loadSuite } from '../../src/suites/load-suite.js';
import { cliPath, runCliAsync } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { screenWith, startPane, tmux, tmuxAvailable } from '../support/tmux-pane.js';

const folder = temporaryFolder();
const suite = join(folder, 'suite.yaml');
const sessions: string[] = [];

/**
 * The editor the review opens: what it does to the case's file is read from `editor-mode` — a new
 * prompt, or a field no case has (which the review must refuse).
 */
const editor = join(folder, 'editor.sh');
writeFileSync(
  editor,
  [
    '#!/bin/sh',
    `if [ "$(cat ${folder}/editor-mode)" = bad ]; then echo "bogus_field: 1" >> "$1"; exit 0; fi`,
    `sed -i 's/^prompt: .*/prompt: Any refund from the gym this spring?/' "$1"`,
    '',
  ].join('\n'),
);
chmodSync(editor, 0o755);

/** Starts `calltape review` on a real pseudo-terminal (a detached tmux pane of 160×60). */
function startReview(): string {
  const name = `calltape-review-${process.pid}-${sessions.length}`;
  sessions.push(name);
  return startPane(
    name,
    `cd ${folder} && EDITOR=${editor} ${process.execPath} ${cliPath} review suite.yaml; echo "review exited $?"`,
  );
}

const pendingIds = (): string[] =>
  loadSuite(suite, folder)
    .drafts.filter((draft) => draft.review === 'pending')
    .map((draft) => draft.test_id);
const draftOf = (id: string) =>
  loadSuite(suite, folder).drafts.find((draft) => draft.test_id === id);
const keysLine = 'a accept · e edit · f flip positive/negative · r reject · s skip · q quit';

beforeAll(async () => {
  // Ten generated drafts (offline, from the bundled generation) and one promoted from the bundled bank session TC-003.
  const generated = await runCliAsync([
    ...generateArgs,
    '--cassette',
    'recordings/bank-generate.sqlite',
    '--agent-model',
    'gpt-4o-mini',
    '--out',
    suite,
  ]);
  expect(generated.status, generated.stderr).toBe(0);
  copyFileSync(join(packageRoot, 'recordings/bank-demo.sqlite'), join(folder, 'bank.sqlite'));
  const promoted = await runCliAsync(
    [
      'cases',
      'promote',
      '--out',
      'suite.yaml',
      '--cassette',
      './bank.sqlite',
      '--session',
      'TC-003',
    ],
    { cwd: folder },
  );
  expect(promoted.status, promoted.stderr).toBe(0);
});

afterAll(() => {
  for (const session of sessions) tmux('kill-session', '-t', session);
});

describe.skipIf(!tmuxAvailable)('calltape review on a terminal', () => {
  it('flips, accepts, refuses a bad edit, keeps a good one, rejects and skips, writing each as it is made, and resumes', async () => {
    const [first, second, third, fourth] = pendingIds();
    expect(pendingIds()).toHaveLength(11);
    const one = startReview();
    const screen = await screenWith(one, keysLine);
    expect(screen).toContain(`${first} [pending] generated positive · search_transactions`);
    expect(screen).toContain(
      'guideline: the customer asks about past payments, purchases or refunds',
    );
    expect(screen).toContain('Captured trace:');
    expect(screen).toContain('[1/11] 0 accepted · 0 rejected · 0 skipped');

    tmux('send-keys', '-t', one, 'f');
    await screenWith(one, `flipped ${first} to negative`);
    expect(draftOf(first ?? '')).toMatchObject({
      never: ['search_transactions'],
      review: 'pending',
      provenance: { kind: 'negative', source: 'generated' },
    });
    expect(draftOf(first ?? '')).not.toHaveProperty('expected_tool');

    tmux('send-keys', '-t', one, 'a');
    await screenWith(one, `accepted ${first}`);
    // Written the moment the key is pressed: an ordinary case now, its provenance kept.
    const accepted = loadSuite(suite, folder).cases.find((testCase) => testCase.test_id === first);
    expect(accepted).toMatchObject({
      never: ['search_transactions'],
      provenance: { kind: 'negative' },
    });
    expect(accepted).not.toHaveProperty('review');

    writeFileSync(join(folder, 'editor-mode'), 'bad');
    const before = readFileSync(suite, 'utf8');
    tmux('send-keys', '-t', one, 'e');
    const refused = await screenWith(one, 'edit refused:');
    expect(refused).toContain('bogus_field: unknown field');
    expect(refused).toContain(`${second} is unchanged`);
    expect(readFileSync(suite, 'utf8')).toBe(before);

    writeFileSync(join(folder, 'editor-mode'), 'good');
    tmux('send-keys', '-t', one, 'e');
    await screenWith(one, `edited ${second} (checked against the suite schema)`);
    await screenWith(one, 'prompt:    Any refund from the gym this spring?');
    expect(draftOf(second ?? '')?.prompt).toBe('Any refund from the gym this spring?');

    tmux('send-keys', '-t', one, 'a');
    await screenWith(one, `${third} [pending]`);
    tmux('send-keys', '-t', one, 'r');
    await screenWith(one, `rejected ${third} (removed)`);
    expect(readFileSync(suite, 'utf8')).not.toContain(third);
    tmux('send-keys', '-t', one, 's');
    await screenWith(one, `[5/11] 2 accepted · 1 rejected · 1 skipped · skipped ${fourth}`);
    tmux('send-keys', '-t', one, 'q');
    const summary = await screenWith(one, 'review exited 0');
    expect(summary).toContain(
      'suite.yaml: 2 accepted, 1 rejected, 1 skipped; 8 still pending (calltape review suite.yaml resumes)',
    );

    // The next review starts at the first draft still pending: the one skipped.
    const two = startReview();
    const resumed = await screenWith(two, keysLine);
    expect(resumed).toContain(`${fourth} [pending]`);
    expect(resumed).toContain('[1/8] 0 accepted');
    for (let skip = 0; skip < 7; skip += 1) tmux('send-keys', '-t', two, 's');
    // The promoted case shows why it was promoted and the trace of its replay.
    const promoted = await screenWith(
      two,
      'please-wire-1-200-50-to-acme-corps-checking [pending] promoted',
    );
    expect(promoted).toContain('session:   TC-003 (bank.sqlite)');
    expect(promoted).toContain(
      'recordings/suite.sqlite#please-wire-1-200-50-to-acme-corps-checking',
    );
    expect(promoted).toContain(
      '→ execute_transfer({"recipient_name":"Acme Corp","amount":"1200.50","account_type":"checking"}) [mocked]',
    );
    tmux('send-keys', '-t', two, 'a');
    await screenWith(two, 'review exited 0');
    expect(loadSuite(suite, folder).cases.map((testCase) => testCase.test_id)).toEqual([
      first,
      second,
      'please-wire-1-200-50-to-acme-corps-checking',
    ]);
    expect(pendingIds()).toHaveLength(7);
  });
});
