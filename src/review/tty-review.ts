import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isMap, parseDocument, stringify as toYaml } from 'yaml';
import { isCalltapeError } from '../errors.js';
import { runKeyLoop, withTerminalReleased } from '../ratings/key-loop.js';
import { renderRunView } from '../ratings/render-run-view.js';
import { loadRunView } from '../runner/load-run-view.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { readDraft, replaceDraft, type CaseValue } from '../suites/edit-draft.js';
import { loadSuite } from '../suites/load-suite.js';
import { renderDraft } from '../suites/render-drafts.js';
import { reviewDrafts } from '../suites/review-drafts.js';
import { flipCase } from './flip-case.js';
import {
  currentDraft,
  decided,
  pressReviewKey,
  reviewProgress,
  startReview,
  type ReviewEffect,
  type ReviewState,
} from './review-session.js';
import { shellCommand } from '../shell-command.js';
import { terminalSafe } from '../terminal-safe.js';

export interface TtyReviewOptions {
  /** The suite file (absolute). */
  readonly path: string;
  /** How the suite is named on screen. */
  readonly shownPath: string;
  readonly cwd: string;
  readonly keepRejected: boolean;
  /** The command an edit opens, with the case's file as its last argument ($VISUAL, $EDITOR). */
  readonly editor: string;
  /** The runs database, should a trace be named by a stored run. */
  readonly runsDb: string;
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
}

/**
 * The terminal review: shows one pending draft at a time — its prompt, guideline or why it was
 * promoted, what it expects, and the trace captured for it — and reads single keys. Every
 * decision is written to the suite the moment the key is pressed (whole file, temporary then
 * renamed), so quitting loses nothing decided, and the next review starts at the first draft
 * still pending. Resolves with where the review ended.
 */
export async function reviewOnTerminal(options: TtyReviewOptions): Promise<ReviewState> {
  const { input, output } = options;
  let suite = loadSuite(options.path, options.cwd);
  const pendingOf = (loaded: Suite): SuiteCase[] =>
    loaded.drafts.filter((draft) => draft.review === 'pending');
  let pending = pendingOf(suite);
  const ids = (): string[] => pending.map((draft) => draft.test_id);
  let state = startReview(ids());
  if (state.done) {
    output.write(terminalSafe(`${options.shownPath}: no draft is pending review.\n`));
    return state;
  }
  const draw = (): void => {
    const id = currentDraft(state, ids());
    const draft = pending.find((candidate) => candidate.test_id === id);
    output.write(
      `\u001b[2J\u001b[H${draft ? terminalSafe(screen(draft, suite, state, options)) : ''}`,
    );
  };
  await runKeyLoop(input, {
    draw,
    key: (key) => {
      const pressed = pressReviewKey(state, key, currentDraft(state, ids()));
      state = pressed.state;
      if (pressed.effect.kind !== 'none') {
        const outcome = apply(pressed.effect, options);
        suite = loadSuite(options.path, options.cwd);
        pending = pendingOf(suite);
        state = decided(state, pressed.effect, outcome, ids());
      }
      return state.done;
    },
  });
  output.write(
    `\u001b[2J\u001b[H${terminalSafe(`${options.shownPath}: ${state.accepted} accepted, ${state.rejected} rejected, ${state.skipped.size} skipped; ${pending.length} still pending${pending.length > 0 ? ` (calltape review ${shellCommand([options.shownPath])} resumes)` : ''}\n`)}`,
  );
  return state;
}

function screen(
  draft: SuiteCase,
  suite: Suite,
  state: ReviewState,
  options: TtyReviewOptions,
): string {
  return [
    `calltape review ${shellCommand([options.shownPath])}`,
    '',
    ...renderDraft(draft),
    '',
    'Captured trace:',
    traceOf(draft, suite, options),
    '',
    `${reviewProgress(state)}${state.message ? ` · ${state.message}` : ''}`,
    'a accept · e edit · f flip positive/negative · r reject · s skip · q quit',
    '',
  ].join('\n');
}

/** The draft's trace: its own session in the suite's cassette (a promoted case's slice), else the session it was promoted from. */
function traceOf(draft: SuiteCase, suite: Suite, options: TtyReviewOptions): string {
  const origin = draft.provenance;
  const candidates = [`${suite.cassette}#${draft.test_id}`];
  if (origin?.cassette && origin.session)
    candidates.push(`${resolve(dirname(suite.file), origin.cassette)}#${origin.session}`);
  for (const run of candidates) {
    try {
      return renderRunView(loadRunView(run, { cwd: options.cwd, runsDb: options.runsDb }));
    } catch (error) {
      if (!isCalltapeError(error)) throw error;
    }
  }
  return origin?.source === 'generated'
    ? '  (none: generated without --run; calltape generate --run captures one)'
    : '  (none recorded for this case)';
}

/** Writes one decision; a refusal (a flip with nothing to flip to, an edit the suite rules reject) leaves the file as it was. */
function apply(
  effect: Exclude<ReviewEffect, { kind: 'none' }>,
  options: TtyReviewOptions,
): { message: string; refused?: boolean } {
  const { id } = effect;
  try {
    switch (effect.kind) {
      case 'accept':
      case 'reject':
        reviewDrafts(
          options.path,
          {
            accept: effect.kind === 'accept' ? [id] : [],
            reject: effect.kind === 'reject' ? [id] : [],
            keepRejected: options.keepRejected,
          },
          options.cwd,
        );
        return {
          message:
            effect.kind === 'accept'
              ? `accepted ${id}`
              : `rejected ${id}${options.keepRejected ? ' (kept as review: rejected)' : ' (removed)'}`,
        };
      case 'flip': {
        const flipped = flipCase(readDraft(options.path, id));
        if ('refused' in flipped) return { message: `flip: ${flipped.refused}`, refused: true };
        replaceDraft(options.path, id, flipped.value);
        return {
          message: `flipped ${id} to ${flipped.value['never'] === undefined ? 'positive' : 'negative'}`,
        };
      }
      case 'edit':
        return edit(id, options);
    }
  } catch (error) {
    if (!isCalltapeError(error)) throw error;
    return {
      message: `${effect.kind} refused: ${error.message}; ${id} is unchanged`,
      refused: true,
    };
  }
}

/** Opens the case's YAML in the editor, then checks what came back against the suite rules before writing it. */
function edit(id: string, options: TtyReviewOptions): { message: string; refused?: boolean } {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-review-'));
  const file = join(folder, `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.yaml`);
  try {
    writeFileSync(file, toYaml(readDraft(options.path, id), { lineWidth: 0 }));
    const ran = withTerminalReleased(options.input, () =>
      spawnSync(`${options.editor} '${file.replace(/'/g, `'\\''`)}'`, {
        shell: true,
        stdio: 'inherit',
      }),
    );
    if (ran.status !== 0)
      return {
        message: `the editor exited ${ran.status ?? ran.signal ?? 'abnormally'}; ${id} is unchanged`,
        refused: true,
      };
    const document = parseDocument(readFileSync(file, 'utf8'));
    if (document.errors.length > 0 || !isMap(document.contents))
      return {
        message: `edit refused: not a case (${document.errors[0]?.message ?? 'a YAML mapping is expected'}); ${id} is unchanged`,
        refused: true,
      };
    replaceDraft(options.path, id, document.toJSON() as CaseValue);
    return { message: `edited ${id} (checked against the suite schema)` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
