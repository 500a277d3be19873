import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import Database from 'better-sqlite3';
import { RatingStore } from '../../src/ratings/rating-store.js';
import { RunStore } from '../../src/runner/run-store.js';
import { cliPath, runCliAsync as runCli } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';
import { screenWith, startPane, tmux, tmuxAvailable } from '../support/tmux-pane.js';

const folder = temporaryFolder();
const ratings = join(folder, 'ratings.sqlite');
const cassette = join(packageRoot, 'recordings/bank-demo.sqlite');
const sessions: string[] = [];

/** Starts `calltape rate` on a real pseudo-terminal (a detached tmux pane of 160×60). */
function startRater(): string {
  const name = `calltape-rate-${process.pid}-${sessions.length}`;
  sessions.push(name);
  return startPane(
    name,
    `cd ${folder} && ${process.execPath} ${cliPath} rate ${cassette} --ratings ${ratings} --rater ana; echo "rater exited $?"`,
  );
}

afterAll(() => {
  for (const session of sessions) tmux('kill-session', '-t', session);
});

describe.skipIf(!tmuxAvailable)('calltape rate on a terminal', () => {
  it('shows each run, stores three ratings as they are given, quits, and resumes at the fourth', async () => {
    const first = startRater();
    const screen = await screenWith(first, 'p pass · f fail · s skip · n note · b back · q quit');
    expect(screen).toContain(`── ${cassette}#TC-001`);
    expect(screen).toContain(
      'Tools offered (3): execute_transfer, get_balance, search_transactions',
    );
    expect(screen).toContain(
      "user: Transfer $150 to John Doe's savings account with the memo 'rent'",
    );
    expect(screen).toContain(
      '→ execute_transfer({"recipient_name":"John Doe","amount":150,"account_type":"savings","memo":"rent"}) [mocked]',
    );
    expect(screen).toContain('Final answer:');
    expect(screen).toContain('[1/22] rated 0/22, pass 0%');

    tmux('send-keys', '-t', first, 'p');
    await screenWith(first, `── ${cassette}#TC-002`);
    // Written the moment the key is pressed, not when the session ends.
    const early = new RatingStore(ratings, { readonly: true });
    expect(early.list('golden').map((rating) => rating.run)).toEqual([`${cassette}#TC-001`]);
    early.close();

    tmux('send-keys', '-t', first, 'n');
    await screenWith(first, 'note (Enter keeps, Esc drops):');
    tmux('send-keys', '-t', first, '-l', 'memo lower-cased');
    tmux('send-keys', '-t', first, 'Enter');
    await screenWith(first, 'note: memo lower-cased');
    tmux('send-keys', '-t', first, 'f');
    await screenWith(first, `── ${cassette}#TC-003`);
    tmux('send-keys', '-t', first, 'p');
    await screenWith(first, '[4/22] rated 3/22, pass 66.7%');
    tmux('send-keys', '-t', first, 'q');
    await screenWith(first, 'rater exited 0');

    const store = new RatingStore(ratings, { readonly: true });
    expect(
      store.list('golden').map(({ run, rating, note, rater }) => ({ run, rating, note, rater })),
    ).toEqual([
      { run: `${cassette}#TC-001`, rating: 'pass', note: undefined, rater: 'ana' },
      { run: `${cassette}#TC-002`, rating: 'fail', note: 'memo lower-cased', rater: 'ana' },
      { run: `${cassette}#TC-003`, rating: 'pass', note: undefined, rater: 'ana' },
    ]);
    store.close();

    const second = startRater();
    const resumed = await screenWith(second, 'p pass · f fail');
    expect(resumed).toContain(`── ${cassette}#TC-004`);
    expect(resumed).toContain('[4/22] rated 3/22, pass 66.7%');
    tmux('send-keys', '-t', second, 'q');
    await screenWith(second, 'rater exited 0');
  });
});

describe('calltape rate --mark and ratings export/import', () => {
  const marks = join(folder, 'marks.sqlite');
  const run = (args: readonly string[]): ReturnType<typeof runCli> => runCli(args, { cwd: folder });

  it('marks runs from a script, refusing the whole batch when one run no longer exists', async () => {
    const gone = await run([
      'rate',
      '--ratings',
      marks,
      '--mark',
      `${cassette}#TC-001=pass`,
      '--mark',
      `${cassette}#TC-999=fail`,
    ]);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain(
      `CONFIG_INVALID: ${cassette}#TC-999: the run no longer exists: ${cassette} has no session "TC-999"`,
    );
    const marked = await run([
      'rate',
      '--set',
      'smoke',
      '--ratings',
      marks,
      '--rater',
      'ci',
      '--note',
      'looked fine',
      '--mark',
      `${cassette}#TC-001=pass`,
      '--mark',
      `${cassette}#TC-004=fail`,
    ]);
    expect(marked.status, marked.stderr).toBe(0);
    const store = new RatingStore(marks, { readonly: true });
    expect(store.sets()).toEqual(['smoke']);
    expect(store.list('smoke').map(({ run: rated, rating }) => `${rated}=${rating}`)).toEqual([
      `${cassette}#TC-001=pass`,
      `${cassette}#TC-004=fail`,
    ]);
    // rate --mark A --mark B --note text: the note is the command's, so every mark carries it (docs/judges.md).
    expect(store.list('smoke').map(({ note }) => note)).toEqual(['looked fine', 'looked fine']);
    store.close();
  });

  it('exports a set as YAML that imports back into another database unchanged', async () => {
    const exported = await run([
      'ratings',
      'export',
      '--ratings',
      marks,
      '--out',
      join(folder, 'smoke.yaml'),
    ]);
    expect(exported.status, exported.stderr).toBe(0);
    const imported = await run([
      'ratings',
      'import',
      join(folder, 'smoke.yaml'),
      '--ratings',
      join(folder, 'copy.sqlite'),
    ]);
    expect(imported.stdout).toContain('imported 2 rating(s) into "smoke"');
    const again = await run(['ratings', 'export', '--ratings', join(folder, 'copy.sqlite')]);
    expect(again.stdout).toBe(readFileSync(join(folder, 'smoke.yaml'), 'utf8'));
  });

  it('rates a case of a stored test run by run:<id>/<session>, and names a case the run does not have', async () => {
    const runsDb = join(folder, 'runs.sqlite');
    const stored = join(folder, 'stored.sqlite');
    // A stored run as `calltape test` leaves it: the report names the cassette and each case's session.
    new RunStore(runsDb).close();
    const db = new Database(runsDb);
    const report = { cassette, cases: [{ test_id: 'TC-004', session: 'TC-004' }] };
    db.prepare(
      "INSERT INTO runs (suite, file, mode, drive, cassette, started_at, duration_ms, passed, exit_code, report) VALUES ('bank', 'suite.yaml', 'replay', 'agent', ?, '2026-11-30T12:00:00Z', 1, 1, 0, ?)",
    ).run(cassette, JSON.stringify(report));
    db.close();
    const marked = await run([
      'rate',
      '--ratings',
      stored,
      '--runs-db',
      runsDb,
      '--mark',
      'run:1/TC-004=fail',
    ]);
    expect(marked.status, marked.stderr).toBe(0);
    const missing = await run([
      'rate',
      '--ratings',
      stored,
      '--runs-db',
      runsDb,
      '--mark',
      'run:1/TC-404=fail',
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      'run:1/TC-404: the run no longer exists: stored run #1 has no case "TC-404"',
    );
    const store = new RatingStore(stored, { readonly: true });
    expect(store.get('golden', 'run:1/TC-004')?.rating).toBe('fail');
    store.close();
  });

  it('needs a terminal, or --mark', async () => {
    const result = await run(['rate', cassette, '--ratings', marks]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('calltape rate needs a terminal');

    // A mistyped cassette is named as missing, with the nearest one, before the terminal is asked for, and no ratings file is made.
    const untouched = join(folder, 'untouched.sqlite');
    const typo = await run([
      'rate',
      join(dirname(cassette), 'bank-dmeo.sqlite'),
      '--ratings',
      untouched,
    ]);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('bank-dmeo.sqlite: no such cassette');
    expect(typo.stderr).toContain('Did you mean');
    expect(typo.stderr).toContain('bank-demo.sqlite?');
    expect(existsSync(untouched)).toBe(false);
  });
});
