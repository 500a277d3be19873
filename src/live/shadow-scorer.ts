import { ConversationChain } from '../trace/conversation-chain.js';
import type { Interaction, ToolCall } from '../trace/trace.js';
import { declaredSchemas, type DeclaredSchemas } from './declared-schemas.js';
import { evaluateCall } from './evaluate-call.js';
import { OpenSessions, type OpenSession } from './open-sessions.js';
import {
  isCallPolicy,
  type CallPolicy,
  type Policies,
  type SessionPolicy,
} from './policy-types.js';
import { RelayedMcpCalls, type RelayedMcpCall } from './relayed-mcp-calls.js';
import {
  semanticLookup,
  semanticRules,
  type EmbeddingsRunner,
  type SemanticRules,
} from './semantic-lookup.js';
import {
  sessionContext,
  suiteCases,
  type SessionJudges,
  type SuiteCaseEntry,
} from './session-case.js';
import {
  roundErrorVerdict,
  scoringErrorVerdict,
  type UnscoredCall,
} from './scoring-error-verdict.js';
import { sessionVerdict } from './session-verdict.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

/** What scoring needs from outside: judges and embeddings do I/O, so they are injected. */
export interface ScorerRunners extends SessionJudges {
  /** Vectors for the texts a call's semantic rules compare; undefined when embeddings are unavailable. */
  readonly embeddings?: EmbeddingsRunner;
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
  /** The arguments policies with semantic rules, and the texts those rules compare with: found once per policies. */
  private semanticPolicies: SemanticRules[] = [];
  private sessionPolicies: SessionPolicy[] = [];
  private cases = new Map<string, SuiteCaseEntry>();
  private readonly chain = new ConversationChain();
  private readonly open = new OpenSessions();
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
    this.semanticPolicies = semanticRules(this.callPolicies);
    this.sessionPolicies = next.policies.filter(
      (policy): policy is SessionPolicy => !isCallPolicy(policy),
    );
    this.cases = suiteCases(next.suites);
  }

  get current(): Policies {
    return this.policies;
  }

  /**
   * Scores the calls of one interaction; returns their verdicts, and sessions pushed out because
   * more than `maxOpenSessions` are open (the caller ends those). Never throws: a call whose
   * scoring throws gets an `error` verdict and the other calls are still scored; a round that
   * fails before any call gets an `error` verdict for each of its calls.
   */
  async scoreInteraction(
    interaction: Interaction,
    caseTag: string | undefined,
    now: number,
  ): Promise<{ verdicts: CallVerdict[]; evicted: OpenSession[] }> {
    const calls = interaction.response?.output.toolCalls ?? [];
    const model = interaction.request.model ?? interaction.response?.model ?? 'unknown';
    const mocked = new Set((interaction.mocked ?? []).map((call) => call.callId));
    const where = (call: ToolCall, sessionId: string): UnscoredCall => ({
      at: interaction.timing.startedAt,
      interactionId: interaction.id,
      sessionId,
      wire: interaction.provider,
      model,
      tool: call.name,
      callIndex: call.index,
      arguments: call.argumentsRaw,
      mocked: call.id !== undefined && mocked.has(call.id),
    });
    let round: { sessionId: string; session: OpenSession; declared: DeclaredSchemas | undefined };
    try {
      const sessionId = this.chain.assign(interaction);
      round = {
        sessionId,
        session: this.open.touch(sessionId, interaction, caseTag, now, this.cases),
        declared: declaredSchemas(interaction, calls),
      };
    } catch (error) {
      const { sessionId } = interaction;
      return {
        verdicts:
          calls.length > 0
            ? calls.map((call) => scoringErrorVerdict(where(call, sessionId), error))
            : [
                roundErrorVerdict(
                  {
                    at: interaction.timing.startedAt,
                    interactionId: interaction.id,
                    sessionId,
                    wire: interaction.provider,
                    model,
                  },
                  error,
                  'scored',
                ),
              ],
        evicted: this.open.takeOver(this.policies.maxOpenSessions),
      };
    }
    const verdicts: CallVerdict[] = [];
    for (const call of calls) {
      const sampleKey = `${interaction.id}:${call.index}`;
      const unscored = where(call, round.sessionId);
      let verdict: CallVerdict;
      try {
        verdict = { ...unscored, ...(await this.evaluate(call, round.declared, sampleKey)) };
      } catch (error) {
        verdict = scoringErrorVerdict(unscored, error);
      }
      verdicts.push(verdict);
      round.session.verdicts.set(sampleKey, verdict);
    }
    return { verdicts, evicted: this.open.takeOver(this.policies.maxOpenSessions) };
  }

  /** One call against the call policies, with the embeddings its sampled semantic rules need. */
  private async evaluate(
    call: ToolCall,
    declared: DeclaredSchemas | undefined,
    sampleKey: string,
  ): Promise<Pick<CallVerdict, 'verdict' | 'score' | 'evaluated' | 'failures'>> {
    const embeddings =
      this.semanticPolicies.length > 0
        ? await semanticLookup(
            this.semanticPolicies,
            call.argumentsRaw,
            sampleKey,
            this.runners.embeddings,
            this.policies.judge.embeddingModel,
          )
        : undefined;
    const result = evaluateCall(
      this.callPolicies,
      call,
      declared,
      sampleKey,
      embeddings ? { embeddings } : {},
    );
    return {
      verdict: result.failures.length > 0 ? 'fail' : 'pass',
      score: result.score,
      evaluated: result.evaluated,
      failures: result.failures,
    };
  }

  /** MCP tools/calls the proxy relayed: each joins its session's trajectory when that session ends. */
  noteMcpCalls(calls: readonly RelayedMcpCall[]): void {
    this.mcpCalls.note(calls);
  }

  /** Sessions with no round trip for the idle timeout, taken out of the open set. */
  takeIdle(now: number): OpenSession[] {
    return this.open.takeIdle(now, this.policies.sessionIdleMs);
  }

  /** Every open session, taken out (shutdown, end of a cassette). */
  takeAll(): OpenSession[] {
    return this.open.takeAll();
  }

  /** Scores ended sessions against the session policies. */
  async endSessions(ended: readonly OpenSession[]): Promise<SessionVerdict[]> {
    const verdicts: SessionVerdict[] = [];
    for (const session of ended) {
      const verdict = await sessionVerdict(
        session,
        this.sessionPolicies,
        this.mcpCalls,
        sessionContext(session, this.cases, this.runners),
      );
      if (verdict) verdicts.push(verdict);
    }
    return verdicts;
  }
}
