import type {
  LlmJudgeSpec,
  CodeJudgeSpec,
  JudgeVerdict,
  TrajectoryCase,
} from '../scoring/trajectory/types.js';
import { scoreCase } from '../scoring/score-case.js';
import type { Suite, SuiteCase } from '../scoring/suite-types.js';
import { ownValue, setOwn } from '../scoring/own.js';
import { schemasFromTools } from '../scoring/schemas-from-tools.js';
import { outcomeOf } from '../scoring/trajectory/status-check.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import { ConversationChain } from '../trace/conversation-chain.js';
import type { Interaction, JsonSchema } from '../trace/trace.js';
import type { Trajectory } from '../trace/trajectory.js';
import { evaluateCall } from './evaluate-call.js';
import { evaluateSession, type SessionContext } from './evaluate-session.js';
import {
  isCallPolicy,
  type CallPolicy,
  type Policies,
  type SessionPolicy,
} from './policy-types.js';
import { sampled } from './sample.js';
import { sharedSchema } from './constraint-case.js';
import { withUnaskedCalls } from '../mcp/unasked-mcp-calls.js';
import { RelayedMcpCalls, unaskedStep, type RelayedMcpCall } from './relayed-mcp-calls.js';
import type { CallVerdict, SessionVerdict, TrajectoryStep } from './verdict-types.js';

/** Round trips kept per open session; a longer run keeps its latest ones. */
const maxInteractionsPerSession = 1_000;

export interface OpenSession {
  readonly id: string;
  /** Tool results already kept (by call id): agents resend them with every later request. */
  readonly results: Set<string>;
  readonly interactions: Interaction[];
  /** Call verdicts by `<interaction id>:<call index>`. */
  readonly verdicts: Map<string, CallVerdict>;
  caseId: string | undefined;
  model: string;
  startedAt: number;
  lastAt: number;
}

/** What scoring needs from outside: judges and embeddings do I/O, so they are injected. */
export interface ScorerRunners {
  readonly codeJudge?: (
    spec: CodeJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
  readonly llmJudge?: (
    spec: LlmJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
  /** Vectors for the texts a call's semantic rules compare; undefined when embeddings are unavailable. */
  readonly embeddings?: (
    texts: readonly string[],
    model: string,
  ) => Promise<((text: string) => readonly number[] | undefined) | undefined>;
}

/**
 * Shadow scoring as a stateful core, shared by the proxy's scoring thread and `calltape score
 * --policies`: scores each interaction's calls against the call policies as it arrives, keeps
 * sessions open (by explicit id, else conversation chaining), and scores a session against the
 * session policies when the caller ends it.
 */
export class ShadowScorer {
  private policies!: Policies;
  private callPolicies: CallPolicy[] = [];
  /** Whether any call policy has a semantic rule (only those need embeddings): found once per policy set. */
  /** The arguments policies with semantic rules, and the texts those rules compare with: found once per policies. */
  private semanticPolicies: { readonly policy: CallPolicy; readonly texts: readonly string[] }[] =
    [];
  private sessionPolicies: SessionPolicy[] = [];
  private cases = new Map<string, { suite: Suite; testCase: SuiteCase; index: number }>();
  private readonly chain = new ConversationChain();
  private readonly open = new Map<string, OpenSession>();
  private readonly mcpCalls = new RelayedMcpCalls();

  constructor(
    policies: Policies,
    private readonly runners: ScorerRunners,
  ) {
    this.usePolicies(policies);
  }

  usePolicies(next: Policies): void {
    this.policies = next;
    this.callPolicies = next.policies.filter(isCallPolicy);
    this.semanticPolicies = this.callPolicies.flatMap((policy) => {
      if (policy.kind !== 'arguments') return [];
      const texts = Object.values(policy.arguments).flatMap((constraint) =>
        constraint.matching_strategy === 'semantic' && typeof constraint.value === 'string'
          ? [constraint.value]
          : [],
      );
      return texts.length > 0 ? [{ policy, texts }] : [];
    });
    this.sessionPolicies = next.policies.filter(
      (policy): policy is SessionPolicy => !isCallPolicy(policy),
    );
    this.cases = new Map();
    for (const suite of next.suites)
      suite.cases.forEach((testCase, index) =>
        this.cases.set(testCase.test_id, { suite, testCase, index }),
      );
  }

  get current(): Policies {
    return this.policies;
  }

  /**
   * Scores the calls of one interaction; returns their verdicts, and sessions pushed out because
   * more than `maxOpenSessions` are open (the caller ends those).
   */
  async scoreInteraction(
    interaction: Interaction,
    caseTag: string | undefined,
    now: number,
  ): Promise<{ verdicts: CallVerdict[]; evicted: OpenSession[] }> {
    const sessionId = this.chain.assign(interaction);
    const session = this.touch(sessionId, interaction, caseTag, now);
    const declared =
      interaction.request.tools.length > 0
        ? (schemasFromTools(interaction.request.tools) as { [tool: string]: JsonSchema })
        : undefined;
    const model = interaction.request.model ?? interaction.response?.model ?? 'unknown';
    const mocked = new Set((interaction.mocked ?? []).map((call) => call.callId));
    const verdicts: CallVerdict[] = [];
    for (const call of interaction.response?.output.toolCalls ?? []) {
      // This request's own map: the called tool's schema is swapped for the one object of its text.
      const own = ownValue(declared, call.name);
      if (declared && own) setOwn(declared, call.name, sharedSchema(own));
      const sampleKey = `${interaction.id}:${call.index}`;
      const embeddings =
        this.semanticPolicies.length > 0
          ? await this.semanticLookup(call.argumentsRaw, sampleKey)
          : undefined;
      const result = evaluateCall(
        this.callPolicies,
        call,
        declared,
        sampleKey,
        embeddings ? { embeddings } : {},
      );
      const verdict: CallVerdict = {
        at: interaction.timing.startedAt,
        interactionId: interaction.id,
        sessionId,
        wire: interaction.provider,
        model,
        tool: call.name,
        callIndex: call.index,
        arguments: call.argumentsRaw,
        mocked: call.id !== undefined && mocked.has(call.id),
        verdict: result.failures.length > 0 ? 'fail' : 'pass',
        score: result.score,
        evaluated: result.evaluated,
        failures: result.failures,
      };
      verdicts.push(verdict);
      session.verdicts.set(sampleKey, verdict);
    }
    const evicted: OpenSession[] = [];
    while (this.open.size > this.policies.maxOpenSessions) {
      const oldest = this.open.values().next().value as OpenSession;
      this.open.delete(oldest.id);
      evicted.push(oldest);
    }
    return { verdicts, evicted };
  }

  /** MCP tools/calls the proxy relayed: each joins its session's trajectory when that session ends. */
  noteMcpCalls(calls: readonly RelayedMcpCall[]): void {
    this.mcpCalls.note(calls);
  }

  /** Sessions with no round trip for the idle timeout, taken out of the open set. */
  takeIdle(now: number): OpenSession[] {
    const idle: OpenSession[] = [];
    for (const session of this.open.values()) {
      // The map is in order of last activity: the first active one ends the search.
      if (now - session.lastAt < this.policies.sessionIdleMs) break;
      idle.push(session);
    }
    for (const session of idle) this.open.delete(session.id);
    return idle;
  }

  /** Every open session, taken out (shutdown, end of a cassette). */
  takeAll(): OpenSession[] {
    const all = [...this.open.values()];
    this.open.clear();
    return all;
  }

  /** Scores ended sessions against the session policies. */
  async endSessions(ended: readonly OpenSession[]): Promise<SessionVerdict[]> {
    const verdicts: SessionVerdict[] = [];
    for (const session of ended) {
      // Relabelled only where the label differs: a spread per round trip showed in the worker's profile.
      const interactions = session.interactions.map((interaction) =>
        interaction.sessionId === session.id
          ? interaction
          : { ...interaction, sessionId: session.id },
      );
      const mcp = this.mcpCalls.take(session.id, interactions);
      // The session's round trips, ordered, with tool results paired (and a relaying MCP server's verdict on them), as one trajectory.
      const trajectory = buildTrajectories(interactions, mcp.results)[0];
      if (!trajectory) continue;
      const sessionTrajectory = { ...trajectory, sessionId: session.id };
      const result = await evaluateSession(this.sessionPolicies, sessionTrajectory, {
        ...this.contextFor(session),
        stepsTrajectory: withUnaskedCalls(sessionTrajectory, mcp.unasked),
      });
      verdicts.push({
        sessionId: session.id,
        caseId: session.caseId,
        startedAt: session.startedAt,
        endedAt: session.lastAt,
        model: session.model,
        // A run with a failing call is a failing run, whatever the session policies say.
        verdict: [...session.verdicts.values()].some((call) => call.verdict === 'fail')
          ? 'fail'
          : result.verdict,
        score: result.score,
        turns: trajectory.counts.turns,
        calls: trajectory.counts.calls,
        evaluated: result.evaluated,
        failures: result.failures,
        trajectory: [
          ...trajectory.calls.map((call): TrajectoryStep => {
            // Call policies score the agent's calls; a hosted call (the provider ran it) has no verdict of its own.
            const scored = call.hosted
              ? undefined
              : session.verdicts.get(
                  `${trajectory.turns[call.turn]?.interactionId ?? ''}:${call.index}`,
                );
            const outcome = outcomeOf(call);
            const server =
              call.hosted?.server ?? (call.id === undefined ? undefined : mcp.servers.get(call.id));
            return {
              turn: call.turn + 1,
              tool: call.name,
              arguments: call.argumentsRaw,
              verdict: scored?.verdict ?? 'unscored',
              failures: (scored?.failures ?? []).map(
                (failure) => `${failure.policy}: ${failure.message}`,
              ),
              ...(call.hosted ? { hosted: true } : {}),
              ...(server !== undefined ? { server } : {}),
              ...(outcome !== 'unknown' ? { outcome } : {}),
            };
          }),
          ...mcp.unasked.map((call) => unaskedStep(call, trajectory.turns)),
        ],
      });
    }
    return verdicts;
  }

  private touch(
    sessionId: string,
    interaction: Interaction,
    caseTag: string | undefined,
    now: number,
  ): OpenSession {
    let session = this.open.get(sessionId);
    if (session) this.open.delete(sessionId);
    else
      session = {
        id: sessionId,
        results: new Set(),
        interactions: [],
        verdicts: new Map(),
        caseId: undefined,
        model: 'unknown',
        startedAt: interaction.timing.startedAt,
        lastAt: now,
      };
    // Re-inserted: the map stays in order of last activity, longest idle first.
    this.open.set(sessionId, session);
    session.interactions.push(slim(interaction, session));
    if (session.interactions.length > maxInteractionsPerSession) session.interactions.shift();
    session.lastAt = now;
    session.caseId =
      caseTag ?? session.caseId ?? (this.cases.has(sessionId) ? sessionId : undefined);
    session.model = interaction.request.model ?? session.model;
    return session;
  }

  private contextFor(session: OpenSession): SessionContext {
    const { codeJudge, llmJudge } = this.runners;
    return {
      caseId: session.caseId,
      scoreCase: async (caseId, trajectory) => {
        const found = this.cases.get(caseId);
        const run = found?.suite.runs[0];
        if (!found || !run) return undefined;
        const outcome = {
          session: session.id,
          trajectory,
          interactions: session.interactions,
          error: null,
          durationMs: 0,
          agent: null,
          problems: [],
        };
        // The clock of relative placeholders ({{TODAY}}) is when the session started: the same trace always scores the same.
        const result = await scoreCase(found.suite, run, found.testCase, found.index, outcome, {
          now: new Date(session.startedAt),
          judges: {
            ...(codeJudge ? { code: codeJudge } : {}),
            ...(llmJudge ? { llm: llmJudge } : {}),
          },
        });
        // Live, a session not offered the expected tool is one the case cannot judge: an error, with the problem saying why.
        return {
          status: result.status === 'unreliable' ? 'error' : result.status,
          score: result.score,
          problems: result.problems,
        };
      },
      ...(codeJudge ? { codeJudge } : {}),
      ...(llmJudge ? { llmJudge } : {}),
    };
  }

  /** The embeddings a sampled semantic rule needs for this call; undefined when none applies. */
  private async semanticLookup(
    argumentsRaw: string,
    sampleKey: string,
  ): Promise<((text: string) => readonly number[] | undefined) | undefined> {
    const texts = new Set<string>();
    for (const { policy, texts: compared } of this.semanticPolicies)
      if (sampled(policy.sample, policy.id, sampleKey))
        for (const text of compared) texts.add(text);
    if (texts.size === 0 || !this.runners.embeddings) return undefined;
    collectStrings(parseOrNull(argumentsRaw), texts);
    return this.runners.embeddings([...texts], this.policies.judge.embeddingModel);
  }
}

/**
 * What an open session keeps of a round trip: everything but the resent history. Agents send the
 * whole conversation with every request, so keeping it would grow a session's memory with the
 * square of its length; a trajectory needs only each tool result once (and the offered tools,
 * which the first round trip keeps). Conversation chaining has already read the messages.
 */
function slim(interaction: Interaction, session: OpenSession): Interaction {
  const messages = interaction.request.messages.filter((message) => {
    if (
      message.role !== 'tool' ||
      message.toolCallId === undefined ||
      session.results.has(message.toolCallId)
    )
      return false;
    session.results.add(message.toolCallId);
    return true;
  });
  const tools = session.interactions.length === 0 ? interaction.request.tools : [];
  return { ...interaction, request: { ...interaction.request, messages, tools } };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, into);
}
