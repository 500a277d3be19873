import { basename, extname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CaseResult } from '../scoring/case-result.js';
import type { CaseRun } from '../scoring/score-case.js';
import type { RunConfig, Suite, SuiteCase } from '../scoring/suite-types.js';
import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { mcpResultsByCall } from '../mcp/mcp-call-results.js';
import { readMcpToolCalls, type StoredMcpExchange } from '../mcp/mcp-store.js';
import { recordedUnaskedSteps } from '../mcp/recorded-unasked-steps.js';
import { placeholderKeys } from '../proxy/placeholder-key.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import type { Interaction } from '../trace/trace.js';
import { agentFailure } from './agent-failure.js';
import type { SessionMiss } from './collect-replay-misses.js';
import { converseWithAgent } from './conversation/converse-with-agent.js';
import { DirectConversation } from './conversation/direct-conversation.js';
import { conversing } from './conversation/start-agent-conversation.js';
import {
  runConversation,
  scriptedTurns,
  type ConversationRun,
  type UserTurnSource,
} from './conversation/run-conversation.js';
import { goalJudge } from './conversation/goal-judge.js';
import { simulatedUser } from './conversation/simulated-user.js';
import type { JudgeRunners } from '../scoring/trajectory/types.js';
import { caseEnvironment, driveAgent } from './drive-agent.js';
import { driveDirect } from './drive-direct.js';
import type { ModuleAgents } from './module-agents.js';
import { withRecordHint } from './record-hint.js';

/**
 * Runs one case against the model — the agent process, direct mode's single prompt, or direct
 * mode's conversation — and gathers what it left: the session's round trips, its trajectory, and
 * why the run says nothing about the model when it does not (replay miss, upstream down, an agent
 * that failed). Scoring is the caller's.
 */
export async function driveCase(
  suite: Suite,
  run: RunConfig,
  testCase: SuiteCase,
  session: string,
  proxyUrl: string,
  context: {
    readonly apiKey: string;
    readonly sessions: ReadonlyMap<string, Interaction[]>;
    readonly misses: ReadonlyMap<string, readonly SessionMiss[]>;
    /** The command that records this suite again, for a replay miss. */
    readonly recordCommand: string;
    /** Judges for a simulated user's `stop_when`. */
    readonly judges: JudgeRunners;
    /** The threads running the suite's agent module (`agent.module`); undefined for other agents. */
    readonly moduleAgents?: ModuleAgents | undefined;
  },
): Promise<CaseRun> {
  const began = performance.now();
  const beganAt = Date.now();
  const mockSets = testCase.mocks ? [...suite.mocks, ...testCase.mocks].map(setName) : undefined;
  let error: string | null = null;
  // Kept apart: a replay miss or an unreachable upstream that made the agent fail is the cause to report.
  let agentError: string | null = null;
  let agent: CaseResult['agent'] = null;
  let conversation: ConversationRun | undefined;
  const problems: string[] = [];
  // Who speaks the user's side: the case's scripted turns, or a model playing the user (after any scripted turns).
  const userTurns = (): UserTurnSource =>
    testCase.user
      ? simulatedUser(testCase.user, testCase.turns ?? [], {
          session,
          model: run.model ?? 'gpt-4o-mini',
          endpoint: {
            url: proxyUrl,
            apiKey: context.apiKey || placeholderKeys.direct,
            timeoutMs: 600_000,
          },
          ...(testCase.user.stop_when
            ? {
                judgeGoal: goalJudge(
                  testCase.user.stop_when,
                  testCase,
                  () => context.sessions.get(session) ?? [],
                  context.judges,
                ),
              }
            : {}),
        })
      : scriptedTurns(testCase.turns ?? []);
  const turnLimit = testCase.user ? { maxTurns: testCase.user.max_turns ?? 10 } : {};
  try {
    if (suite.agent) {
      const prefix = `${proxyUrl}/s/${encodeURIComponent(session)}`;
      const urls = { openai: `${prefix}/v1`, anthropic: prefix };
      const env = {
        ...(context.apiKey
          ? { OPENAI_API_KEY: context.apiKey, ANTHROPIC_API_KEY: context.apiKey }
          : {}),
        ...(run.model ? { CALLTAPE_MODEL: run.model } : {}),
        CALLTAPE_RUN: run.name,
      };
      if (conversing(suite.agent)) {
        const talked = await converseWithAgent(suite.agent, testCase, session, urls, env, {
          source: userTurns(),
          ...turnLimit,
        });
        ({ agent, conversation } = talked);
        agentError = talked.error;
        problems.push(...talked.problems);
      } else if (suite.agent.kind === 'module') {
        if (!context.moduleAgents) throw new Error('no threads were started for the agent module');
        const ran = await context.moduleAgents.run({
          prompt: testCase.prompt ?? '',
          caseId: testCase.test_id,
          env: caseEnvironment(suite.agent, testCase, urls, env),
        });
        agent = ran.agent;
        if (agent.timed_out)
          problems.push(`the agent module did not return within ${suite.agent.timeoutMs} ms`);
        else
          agentError =
            ran.error ?? agentFailure(agent, (context.sessions.get(session) ?? []).length);
      } else {
        agent = await driveAgent(suite.agent, testCase, urls, env);
        if (agent.timed_out)
          problems.push(`the agent did not finish within ${suite.agent.timeoutMs} ms`);
        else agentError = agentFailure(agent, (context.sessions.get(session) ?? []).length);
      }
    } else if (testCase.turns || testCase.user) {
      conversation = await runConversation(
        new DirectConversation(proxyUrl, run, session, {
          apiKey: context.apiKey || placeholderKeys.direct,
          mockSets,
          timeoutMs: 600_000,
        }),
        userTurns(),
        turnLimit,
      );
    } else {
      error = await driveDirect(proxyUrl, run, testCase, session, {
        apiKey: context.apiKey || placeholderKeys.direct,
        mockSets,
        timeoutMs: 600_000,
      });
    }
  } catch (failure) {
    error = `the case could not run: ${(failure as Error).message}`;
  }
  // A replay miss means the cassette cannot answer this case: it is not a verdict on the model.
  const missed = context.misses.get(session);
  if (missed && missed.length > 0)
    error = `replay miss${missedTurn(conversation)}: ${withRecordHint(missed[0]?.message ?? '', `${context.recordCommand} (or --mode auto to record only what is missing)`)}`;
  const interactions = context.sessions.get(session) ?? [];
  // The upstream could not be reached (or timed out): whatever the agent did next says nothing about the model.
  const unreachable = interactions.find(
    (interaction) =>
      interaction.status === 'proxy-error' &&
      (interaction.httpStatus === 502 || interaction.httpStatus === 504),
  );
  if (unreachable && error === null)
    error = `the upstream failed: ${unreachable.error ?? `HTTP ${unreachable.httpStatus}`}`;
  error ??= agentError;
  // What MCP servers answered (recorded in this run, or replayed from the recording): their failure verdicts reach the step-status checks.
  const mcp = mcpTimeline(session, interactions, suite.cassette, beganAt);
  const [trajectory] = buildTrajectories(
    interactions,
    mcpResultsByCall(mcp.interactions, mcp.calls),
  );
  return {
    session,
    trajectory,
    // The session's MCP calls no model call asked for are steps of the run, as in shadow scoring.
    stepsTrajectory: trajectory && recordedUnaskedSteps(trajectory, mcp.interactions, mcp.calls),
    interactions,
    error,
    durationMs: performance.now() - began,
    agent,
    problems,
    ...(conversation ? { conversation } : {}),
  };
}

/** A case that never ran: the reason is its error. */
export function notRun(session: string, error: string): CaseRun {
  return {
    session,
    trajectory: undefined,
    interactions: [],
    error,
    durationMs: 0,
    agent: null,
    problems: [],
  };
}

/**
 * The MCP calls a case's run made, with the round trips they are joined on: the calls this run
 * recorded, on this run's clock; when it recorded none (replay: the relay answers from the
 * cassette and writes nothing), the cassette's, on the clock of the session's recording — a
 * replayed round trip carries the time it was replayed at, the recorded MCP call the time it
 * was recorded at, and joining needs one clock. Call ids are the recording's either way.
 */
function mcpTimeline(
  session: string,
  interactions: readonly Interaction[],
  cassette: string,
  beganAt: number,
): { interactions: readonly Interaction[]; calls: readonly StoredMcpExchange[] } {
  const calls = readMcpToolCalls(cassette);
  const ran = calls.filter((call) => call.startedAt >= beganAt);
  if (ran.length > 0 || calls.length === 0) return { interactions, calls: ran };
  return { interactions: readInteractions(cassette, { sessionId: session }), calls };
}

/** A mock file's set name: its file name without the extension. */
export function setName(file: string): string {
  return basename(file, extname(file));
}

/** ` in turn 3` for a conversation whose turn 3 the cassette could not answer (the turn that failed); empty otherwise. */
function missedTurn(conversation: ConversationRun | undefined): string {
  const failed = conversation?.exchanges.find((exchange) => exchange.reply.error !== undefined);
  return failed === undefined ? '' : ` in turn ${failed.index}`;
}
