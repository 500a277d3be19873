import type { Config, ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { createLogger } from '../logger.js';
import { startProxy, type RunningProxy } from '../proxy/proxy-server.js';
import { loadRunInteractions, type RunSources } from './load-run-view.js';
import type { Rating } from '../ratings/rating.js';
import { buildRunView, type RunView } from '../ratings/run-view.js';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { packageRoot } from '../package-root.js';
import { createCodeJudges, type CodeJudges } from '../judges/code-judges.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import { aggregateSamples } from '../judges/aggregate-samples.js';
import { askJudgeModel, judgeSession, type JudgeEndpoint } from '../judges/ask-judge-model.js';
import { judgeCheck } from '../judges/judge-check.js';
import type {
  JudgeDefinition,
  JudgeOutcome,
  JudgeUsage,
  LoadedRun,
  LlmJudgeDefinition,
} from '../judges/judge-definition.js';
import { judgePromptFor, judgeRequestBody } from '../judges/judge-prompt.js';

export interface JudgeRunOptions {
  readonly config: Config;
  readonly mode: Extract<ProxyMode, 'record' | 'replay' | 'auto'>;
  /** Where judge round trips are recorded and replayed from. */
  readonly cassette: string;
  readonly apiKey: string;
  readonly sources: RunSources;
}

/**
 * Loads every rated run, refusing the whole comparison (CONFIG_INVALID, every missing run named)
 * when one no longer exists: a judge must never be scored on fewer runs than were rated
 * without the user knowing.
 */
export function loadRatedRuns(ratings: readonly Rating[], sources: RunSources): LoadedRun[] {
  const problems: string[] = [];
  const runs: LoadedRun[] = [];
  for (const rating of ratings) {
    try {
      const interactions = loadRunInteractions(rating.run, sources);
      const view = buildRunView(rating.run, interactions);
      if (!view)
        throw new CalltapeError(
          'CONFIG_INVALID',
          `${rating.run}: the run no longer exists: its cassette has no such session`,
        );
      runs.push({ rating, view, interactions });
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      problems.join('\n'),
      'Remove the rating (or restore the run) before comparing judges.',
    );
  return runs;
}

/**
 * Runs every judge on every run, one request at a time so repeated identical requests (samples)
 * take their recorded answers in order on replay. Model judges go through a proxy started here
 * on the judges' cassette; their tokens and latencies are then read from what the cassette
 * recorded, so a replayed comparison reports the same figures, byte for byte.
 */
export async function runJudges(
  judges: readonly JudgeDefinition[],
  runs: readonly LoadedRun[],
  options: JudgeRunOptions,
): Promise<{ outcomes: Map<string, Map<string, JudgeOutcome>>; usage: Map<string, JudgeUsage> }> {
  const needsModel = judges.some((judge) => judge.kind === 'llm');
  const proxy: RunningProxy | undefined = needsModel
    ? await startProxy(
        {
          ...options.config,
          host: '127.0.0.1',
          port: 0,
          mode: options.mode,
          cassette: options.cassette,
        },
        {
          // Silent: each unanswered judge request is an outcome with its reason, and the
          // command reports a judge's failures once, not once per run (93 lines for 30 runs).
          logger: createLogger('silent'),
          // Regression: a stranger replaying without --cassette was told to run `calltape proxy`.
          recordCommand: judgesRecordHint(packageRoot),
        },
      )
    : undefined;
  const codeJudges = createCodeJudges({ baseDir: options.sources.cwd });
  // A suite's own code judges resolve against the suite's folder: one judge thread per suite, for the whole comparison.
  const suiteCode = new Map<string, CodeJudges>();
  const suiteCodeFor = (file: string): CodeJudges =>
    suiteCode.get(file) ??
    suiteCode.set(file, createCodeJudges({ baseDir: dirname(file) })).get(file) ??
    codeJudges;
  const outcomes = new Map<string, Map<string, JudgeOutcome>>();
  const sessions = new Map<string, string>();
  try {
    for (const judge of judges) {
      const byRun = new Map<string, JudgeOutcome>();
      outcomes.set(judge.name, byRun);
      for (const run of runs) {
        const [trajectory] = buildTrajectories(run.interactions);
        if (judge.kind === 'llm' && proxy) {
          const session = judgeSession(judge.name, run.rating.run);
          sessions.set(session, judge.name);
          byRun.set(
            run.rating.run,
            await askModel(judge, run.view, session, {
              url: proxy.url,
              apiKey: options.apiKey,
              timeoutMs: options.config.timeouts?.upstreamHeadersMs ?? 120_000,
            }),
          );
        } else if (judge.kind === 'code' && trajectory) {
          byRun.set(
            run.rating.run,
            await guard(async () => {
              const verdict = await codeJudges.run(
                {
                  code: judge.module,
                  ...(judge.timeoutMs !== undefined ? { timeout_ms: judge.timeoutMs } : {}),
                },
                trajectory,
                { test_id: trajectory.sessionId, prompt: run.view.request },
              );
              return {
                verdict: verdict.pass ? 'pass' : 'fail',
                score: verdict.score ?? null,
                samples: [verdict.pass],
                reason: verdict.reason ?? null,
                error: null,
              };
            }, `judge "${judge.name}"`),
          );
        } else if (judge.kind === 'check') {
          byRun.set(
            run.rating.run,
            await guard(
              () => judgeCheck(judge, run, suiteCodeFor(judge.suite.file)),
              `judge "${judge.name}"`,
            ),
          );
        }
      }
    }
  } finally {
    await Promise.all([codeJudges, ...suiteCode.values()].map((code) => code.close()));
    await proxy?.close();
  }
  return {
    outcomes,
    usage: needsModel
      ? recordedUsage(options.cassette, sessions, judges)
      : new Map<string, JudgeUsage>(),
  };
}

/** Samples, aggregation and the confirmation round of one LLM judge on one run. */
async function askModel(
  judge: LlmJudgeDefinition,
  view: RunView,
  session: string,
  endpoint: JudgeEndpoint,
): Promise<JudgeOutcome> {
  const body = judgeRequestBody(judge, judgePromptFor(judge, view));
  return guard(async () => {
    const round = async (): Promise<{
      pass: boolean;
      score: number;
      samples: { pass: boolean; reason: string | null }[];
    }> => {
      const samples = [];
      for (let index = 0; index < judge.samples; index += 1)
        samples.push(await askJudgeModel(judge, body, session, endpoint));
      return {
        ...aggregateSamples(samples, judge.aggregate, judge.passThreshold),
        samples: samples.map((sample) => ({ pass: sample.pass, reason: sample.reason ?? null })),
      };
    };
    const first = await round();
    const second = !first.pass && judge.confirmOnFail ? await round() : undefined;
    const final = second ?? first;
    const all = [...first.samples, ...(second?.samples ?? [])];
    const verdict = first.pass || (second !== undefined && second.pass) ? 'pass' : 'fail';
    // The reason of a sample that agrees with the verdict: what a person re-reading a disagreement wants.
    const reason =
      all.find((sample) => (sample.pass ? 'pass' : 'fail') === verdict)?.reason ?? null;
    return {
      verdict,
      score: final.score,
      samples: all.map((sample) => sample.pass),
      reason,
      error: null,
    };
  }, `judge "${judge.name}"`);
}

async function guard(answer: () => Promise<JudgeOutcome>, who: string): Promise<JudgeOutcome> {
  try {
    return await answer();
  } catch (error) {
    const message = (error as Error).message;
    return {
      verdict: null,
      score: null,
      samples: [],
      reason: null,
      error: message.startsWith(who) ? message : `${who}: ${message}`,
    };
  }
}

function recordedUsage(
  cassette: string,
  sessions: ReadonlyMap<string, string>,
  judges: readonly JudgeDefinition[],
): Map<string, JudgeUsage> {
  const totals = new Map<
    string,
    { requests: number; inputTokens: number; outputTokens: number; latency: number }
  >();
  for (const interaction of readInteractions(cassette)) {
    const judge = sessions.get(interaction.sessionId);
    if (judge === undefined) continue;
    const total = totals.get(judge) ?? { requests: 0, inputTokens: 0, outputTokens: 0, latency: 0 };
    totals.set(judge, {
      requests: total.requests + 1,
      inputTokens: total.inputTokens + (interaction.response?.usage?.inputTokens ?? 0),
      outputTokens: total.outputTokens + (interaction.response?.usage?.outputTokens ?? 0),
      latency: total.latency + interaction.timing.totalMs,
    });
  }
  return new Map(
    judges
      .filter((judge) => judge.kind === 'llm')
      .map((judge) => {
        const total = totals.get(judge.name);
        return [
          judge.name,
          {
            requests: total?.requests ?? 0,
            inputTokens: total?.inputTokens ?? 0,
            outputTokens: total?.outputTokens ?? 0,
            meanLatencyMs: total && total.requests > 0 ? total.latency / total.requests : null,
          },
        ];
      }),
  );
}

/**
 * How to record the judges' answers. The bank example's recorded judges ship only in a clone of
 * the calltape repository, so they are pointed at only when `calltapeRoot` has them.
 */
export function judgesRecordHint(calltapeRoot: string): string {
  const example = join(calltapeRoot, 'recordings/bank-judges.sqlite');
  return `calltape judges compare … --mode record (the judge models are then asked for real: set --upstream / --anthropic-upstream or their API keys)${
    existsSync(example)
      ? `; the bank example’s judges are recorded in ${relative(process.cwd(), example) || example}`
      : ''
  }`;
}
