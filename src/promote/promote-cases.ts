import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { mergeCassette } from '../cassette/sqlite/cassette-maintenance.js';
import { readSessionRounds } from '../cassette/sqlite/session-rounds.js';
import type { Config } from '../config/config.js';
import { CalltapeError, isCalltapeError } from '../errors.js';
import { readShadowSessions, type ShadowSelection } from '../live/shadow-sessions.js';
import type { Logger } from '../logger.js';
import { isPostgresUrl, printableDatabase } from '../database-url.js';
import { runSuite } from '../runner/run-suite.js';
import { schemasFromTools, type AnyToolDefinition } from '../scoring/schemas-from-tools.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { stableStringify } from '../stable-stringify.js';
import { loadSuite } from '../suites/load-suite.js';
import { openSuiteDocument, saveSuiteDocument } from '../suites/suite-document.js';
import type { JsonValue } from '../trace/trace.js';
import { defaultPromotedMocksDir, planPromotion, type PromotionPlan } from './promotion-plan.js';
import { startSessionResponder } from './session-responder.js';

export interface PromoteOptions {
  readonly config: Config;
  /** The suite to write (absolute); created when missing, else the cases are appended. */
  readonly out: string;
  /** The cassette holding the sessions' round trips (absolute). */
  readonly cassette: string;
  /** The shadow-scoring database the sessions are picked from (absolute), if any. */
  readonly shadowDb?: string;
  readonly selection: ShadowSelection;
  readonly logger: Logger;
  /** The folder (absolute) the cases' mock files go into; default `mocks/promoted/` beside the suite. */
  readonly mocksDir?: string;
}

/** A session a batch passed over. */
export interface SkippedSession {
  readonly sessionId: string;
  readonly reason: string;
  /** It is a case of the suite already: nothing is left to do for it, which is no failure. */
  readonly promoted: boolean;
}

/** What a promotion did. */
export interface Promotion {
  readonly promoted: readonly PromotionPlan[];
  /** Sessions a `--failing` batch passed over, with why. */
  readonly skipped: readonly SkippedSession[];
  /** The cassette the cases replay from (the suite's). */
  readonly cassette: string;
  /** The folder (absolute) the cases' mock files went into. */
  readonly mocksDir: string;
}

/**
 * Promotes recorded sessions to draft cases of a suite. Each session's case is first replayed
 * through a calltape proxy in record mode against a stand-in model that gives the session's own
 * answers, into a slice cassette of its own: only a replay that reproduces the session (the
 * same calls with the same argument text, every answer used) is kept. Then the mock files, the slices (merged into
 * the suite's cassette) and the suite are put in place, the suite last and whole (temporary file,
 * checked, renamed); a failure on the way removes what this run placed. Bad input — an unknown
 * session or cassette, a suite that cannot take the case — stops before anything is written.
 */
export async function promoteCases(options: PromoteOptions): Promise<Promotion> {
  const { out } = options;
  const folder = dirname(out);
  const batch = 'failingSince' in options.selection;
  const picked = options.shadowDb
    ? readShadowSessions(options.shadowDb, options.selection)
    : 'session' in options.selection
      ? [{ sessionId: options.selection.session, failures: [] as readonly string[] }]
      : [];
  const existing = existsSync(out) ? loadSuite(out, process.cwd()) : undefined;
  if (existing?.agent)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${out}: agent: a promoted case replays in direct mode, and this suite spawns an agent`,
      'Promote into a suite of its own (--out promoted.yaml).',
    );
  if (existing && existing.runs.length > 1)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${out}: runs: a promoted case replays its session's model, and this suite has ${existing.runs.length} run configurations`,
      'Promote into a suite of its own (--out promoted.yaml).',
    );
  const suiteCases = [...(existing?.cases ?? []), ...(existing?.drafts ?? [])];
  const taken = new Set(suiteCases.map((c) => c.test_id));
  // A case's name comes from its prompt, so a session promoted before is known by its provenance.
  const promotedAs = new Map<string, string>();
  for (const c of suiteCases)
    if (c.provenance?.session !== undefined) promotedAs.set(c.provenance.session, c.test_id);
  const mocksDir = options.mocksDir ?? join(folder, defaultPromotedMocksDir);
  const mocksFolder = relative(folder, mocksDir).split(sep).join('/') || '.';
  // Direct mode sends one model and one tool list: every case of the suite must have asked the same.
  const suiteRun = existing?.runs[0];
  let model = suiteRun?.model;
  let tools = suiteRun && suiteRun.tools.length > 0 ? stableStringify(suiteRun.tools) : undefined;
  const plans: PromotionPlan[] = [];
  const skipped: SkippedSession[] = [];
  const refuse = (sessionId: string, reason: string, promoted = false): void => {
    if (!batch)
      throw new CalltapeError('CONFIG_INVALID', `${out}: session "${sessionId}": ${reason}`);
    skipped.push({ sessionId, reason, promoted });
  };
  for (const session of picked) {
    const earlier = promotedAs.get(session.sessionId);
    if (earlier !== undefined) {
      refuse(session.sessionId, `already promoted (case "${earlier}")`, true);
      continue;
    }
    const plan = planOrSkip(session, batch, skipped, () =>
      planPromotion({
        sessionId: session.sessionId,
        rounds: readSessionRounds(options.cassette, session.sessionId),
        failures: session.failures,
        cassette: relative(folder, options.cassette),
        ...(options.shadowDb
          ? {
              // A URL is kept without its password: the plan is a file in the suite's folder.
              shadowDb: isPostgresUrl(options.shadowDb)
                ? printableDatabase(options.shadowDb)
                : relative(folder, options.shadowDb),
            }
          : {}),
        taken,
        mocksDir: mocksFolder,
      }),
    );
    if (!plan) continue;
    const planTools = stableStringify(plan.tools);
    if (plan.mocks && existsSync(join(folder, plan.mocks.file)))
      refuse(plan.sessionId, `${join(folder, plan.mocks.file)} exists already`);
    else if (
      (model !== undefined && model !== plan.model) ||
      (tools !== undefined && tools !== planTools)
    )
      refuse(
        plan.sessionId,
        model !== undefined && model !== plan.model
          ? `it asked ${plan.model}, and the suite's cases ask ${model}; direct mode sends one model`
          : `it offered other tools than the suite's cases (${plan.tools.length} tool(s)); direct mode sends one tool list`,
      );
    else {
      model ??= plan.model;
      tools ??= planTools;
      taken.add(plan.testId);
      plans.push(plan);
    }
  }
  const suiteCassette =
    existing?.cassette ?? resolve(folder, 'recordings', `${basename(out, extname(out))}.sqlite`);
  if (plans.length === 0) return { promoted: [], skipped, cassette: suiteCassette, mocksDir };

  const work = join(folder, `.calltape-promote-${process.pid}`);
  const placed: string[] = [];
  try {
    mkdirSync(join(work, 'mocks'), { recursive: true });
    const { slices, notes } = await replaySessions(plans, work, existing, options);
    for (const plan of plans) {
      if (!plan.mocks) continue;
      const target = join(folder, plan.mocks.file);
      mkdirSync(dirname(target), { recursive: true });
      renameSync(join(work, 'mocks', basename(plan.mocks.file)), target);
      placed.push(target);
    }
    const freshCassette = !existsSync(suiteCassette);
    for (const slice of slices) {
      if (!existsSync(suiteCassette)) {
        mkdirSync(dirname(suiteCassette), { recursive: true });
        renameSync(slice, suiteCassette);
        if (freshCassette) placed.push(suiteCassette);
      } else mergeCassette(suiteCassette, slice);
    }
    const [first] = plans;
    const offered = first && first.tools.length > 0 ? { tools: first.tools as JsonValue[] } : {};
    const suite = openSuiteDocument(out, first ? { model: first.model, ...offered } : {});
    if (!suite.document.has('model') && first) suite.document.set('model', first.model);
    if (!suite.document.has('tools') && offered.tools)
      suite.document.set('tools', suite.document.createNode(offered.tools));
    for (const plan of plans) suite.cases.add(suite.document.createNode(plan.testCase));
    saveSuiteDocument(suite);
    return {
      promoted: plans.map((plan) => ({
        ...plan,
        notes: [...plan.notes, ...(notes.get(plan.testId) ?? [])],
      })),
      skipped,
      cassette: suiteCassette,
      mocksDir,
    };
  } catch (error) {
    for (const file of placed) rmSync(file, { force: true });
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The plan `plan` makes for a session, or, in a batch, undefined once the session is noted as
 * passed over with the reason it cannot be taken (the cassette does not hold it, it spoke
 * another API, no round trip completed…): one such session does not stop the others. A single
 * named session that cannot be taken stays an error.
 */
function planOrSkip(
  session: { readonly sessionId: string },
  batch: boolean,
  skipped: SkippedSession[],
  plan: () => PromotionPlan,
): PromotionPlan | undefined {
  try {
    return plan();
  } catch (error) {
    if (!batch || !isCalltapeError(error) || error.code !== 'CONFIG_INVALID') throw error;
    skipped.push({ sessionId: session.sessionId, reason: error.message, promoted: false });
    return undefined;
  }
}

/**
 * Replays each plan's case in record mode against its session's answers, one slice cassette per
 * case, and checks the replay reproduced the session. Resolves with the slices, in plan order,
 * and a note for each case whose starting expectation the scorer fails as it stands.
 */
async function replaySessions(
  plans: readonly PromotionPlan[],
  work: string,
  existing: Suite | undefined,
  options: PromoteOptions,
): Promise<{ slices: string[]; notes: Map<string, string[]> }> {
  const responder = await startSessionResponder(plans.map((plan) => plan.answers));
  try {
    const slices: string[] = [];
    const notes = new Map<string, string[]>();
    for (const [position, plan] of plans.entries()) {
      // The work folder holds each mock file by name alone: the mocks folder may lie outside the suite's.
      const mocks = plan.mocks && join(work, 'mocks', basename(plan.mocks.file));
      if (plan.mocks && mocks) writeFileSync(mocks, toYaml(plan.mocks.content, { lineWidth: 0 }));
      const slice = join(work, `${plan.testId}.sqlite`);
      const { review: _review, provenance: _provenance, mocks: _mocks, ...fields } = plan.testCase;
      const testCase = { ...fields, ...(mocks ? { mocks: [mocks] } : {}) } as unknown as SuiteCase;
      const suite: Suite = {
        file: options.out,
        name: existing?.name ?? basename(options.out, extname(options.out)),
        agent: undefined,
        runs: [
          {
            name: 'default',
            model: plan.model,
            system: undefined,
            tools: plan.tools,
            schemas: schemasFromTools(plan.tools as AnyToolDefinition[]),
            price: undefined,
          },
        ],
        mocks: existing?.mocks ?? [],
        cassette: slice,
        now: existing?.now,
        // The suite's own checks and gates judge the agent later; here only the replay's fidelity is checked.
        checks: {},
        defaults: existing?.defaults ?? {},
        gates: {},
        cases: [testCase],
        drafts: [],
      };
      const run = await runSuite(suite, {
        config: { ...options.config, upstream: responder.upstreamFor(position) },
        mode: 'record',
        concurrency: 1,
        now: existing?.now ?? new Date(),
        logger: options.logger,
        apiKey: 'sk-calltape-promote',
      });
      const result = run.cases[0];
      const served = responder.served(position);
      const made = (result?.calls ?? []).map((call) => ({
        name: call.name,
        arguments: call.arguments,
      }));
      const differences = [
        ...(served !== plan.answers.length
          ? [`it used ${served} of the session's ${plan.answers.length} answer(s)`]
          : []),
        ...(result?.status === 'error' && result.error ? [result.error] : []),
        ...(stableStringify(made) !== stableStringify(plan.calls)
          ? [
              `it called ${describeCalls(made)} where the session called ${describeCalls(plan.calls)}`,
            ]
          : []),
      ];
      if (differences.length > 0)
        throw new CalltapeError(
          'PROMOTE_FAILED',
          `session "${plan.sessionId}": replayed as case "${plan.testId}", it did not reproduce the session: ${differences.join('; ')}`,
          'Nothing was written. Promote from a session recorded on Chat Completions whose tool results are in the cassette.',
        );
      // The session's calls are the starting expectation; where the scorer still fails them (a call breaking its schema), the reviewer should know.
      if (result?.status !== 'pass')
        notes.set(plan.testId, [
          `as promoted, the case fails: ${result?.problems.join('; ') ?? 'no result'} (edit the expectation in review)`,
        ]);
      slices.push(slice);
    }
    return { slices, notes };
  } finally {
    await responder.close();
  }
}

function describeCalls(
  calls: readonly { readonly name: string; readonly arguments: string }[],
): string {
  return calls.length === 0
    ? 'nothing'
    : calls.map((call) => `${call.name}(${call.arguments})`).join(', ');
}
