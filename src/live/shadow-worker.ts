/**
 * The shadow scorer's worker thread: parses captured rounds, scores each tool call against the
 * call policies, groups round trips into sessions, scores a session against the session
 * policies once it goes idle, and writes everything to the shadow database. Work is done one
 * message at a time, in order; the proxy thread only ever waits for nothing.
 */
import { dirname } from 'node:path';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { buildExchange } from '../cassette/build-exchange.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { headerText } from '../cassette/header-text.js';
import { createRedactor } from '../cassette/redact.js';
import { openAiEmbeddings } from '../cassette/embedding-cache.js';
import { adapterById } from '../providers/adapters.js';
import { createCodeJudges, type CodeJudges } from '../runner/code-judges.js';
import { createLlmJudge } from '../runner/llm-judge.js';
import { scoreCase } from '../runner/score-case.js';
import type { Suite, SuiteCase } from '../runner/suite-types.js';
import { schemasFromTools } from '../scoring/schemas-from-tools.js';
import { buildTrajectories, judgeSessionPrefix } from '../trace/build-trajectories.js';
import { ConversationChain } from '../trace/conversation-chain.js';
import type { Interaction, JsonSchema } from '../trace/trace.js';
import { evaluateCall } from './evaluate-call.js';
import { evaluateSession, type SessionContext } from './evaluate-session.js';
import { isCallPolicy, type CallPolicy, type Policies, type SessionPolicy } from './policy-types.js';
import { sampled } from './sample.js';
import type { FromShadowWorker, ShadowWorkerData, ToShadowWorker } from './shadow-protocol.js';
import { ShadowStore } from './shadow-store.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

const port = parentPort;
if (!port) throw new Error('shadow-worker must run as a worker thread');
lowerThreadPriority();
const send = (message: FromShadowWorker): void => port.postMessage(message);
const data = workerData as ShadowWorkerData;
const redactor = createRedactor(data.redactHeaders, data.bodyPatterns);
const store = new ShadowStore(data.database, data.retention);
/** Round trips kept per open session; a longer run keeps its latest ones. */
const maxInteractionsPerSession = 1_000;

interface OpenSession {
  readonly id: string;
  readonly interactions: Interaction[];
  readonly verdicts: Map<string, 'pass' | 'fail'>;
  caseId: string | undefined;
  model: string;
  startedAt: number;
  lastAt: number;
}

let policies: Policies = data.policies;
let callPolicies: CallPolicy[] = [];
let sessionPolicies: SessionPolicy[] = [];
let codeJudges: CodeJudges | undefined;
let proxyBaseUrl: string | undefined;
let cases = new Map<string, { suite: Suite; testCase: SuiteCase; index: number }>();
const chain = new ConversationChain();
const sessions = new Map<string, OpenSession>();
/** Embedding vectors fetched for semantic rules, by model and text (bounded). */
const vectors = new Map<string, readonly number[]>();

function usePolicies(next: Policies): void {
  policies = next;
  callPolicies = next.policies.filter(isCallPolicy);
  sessionPolicies = next.policies.filter((policy): policy is SessionPolicy => !isCallPolicy(policy));
  cases = new Map();
  for (const suite of next.suites) suite.cases.forEach((testCase, index) => cases.set(testCase.test_id, { suite, testCase, index }));
  const judges = codeJudges;
  codeJudges = undefined;
  void judges?.close();
}
usePolicies(data.policies);

let work: Promise<void> = Promise.resolve();
/** Runs tasks strictly one after another: a slow judge holds back the queue, which the proxy thread bounds. */
const enqueue = (task: () => Promise<void> | void): void => {
  work = work.then(task).catch((error: unknown) => send({ type: 'error', message: `shadow scoring failed: ${(error as Error).stack ?? String(error)}` }));
};

port.on('message', (message: ToShadowWorker) => {
  switch (message.type) {
    case 'rounds':
      enqueue(() => scoreRounds(message.rounds));
      break;
    case 'policies':
      enqueue(() => usePolicies(message.policies));
      break;
    case 'proxy-url':
      proxyBaseUrl = message.baseUrl;
      break;
    case 'close':
      clearInterval(idleTimer);
      enqueue(async () => {
        await endSessions([...sessions.values()]);
        await codeJudges?.close();
        store.close();
        send({ type: 'closed' });
      });
      break;
  }
});

const idleTimer = setInterval(() => {
  const now = Date.now();
  const idle = [...sessions.values()].filter((session) => now - session.lastAt >= policies.sessionIdleMs);
  if (idle.length > 0) enqueue(() => endSessions(idle));
}, 250);

async function scoreRounds(rounds: readonly CapturedRound[]): Promise<void> {
  try {
    await scoreBatch(rounds);
  } catch (error) {
    send({ type: 'error', message: `shadow scoring failed on a batch of ${rounds.length}: ${(error as Error).stack ?? String(error)}` });
    send({ type: 'batch-done', calls: [] });
  }
}

async function scoreBatch(rounds: readonly CapturedRound[]): Promise<void> {
  const verdicts: CallVerdict[] = [];
  const overflow: OpenSession[] = [];
  for (const round of rounds) {
    const adapter = adapterById(round.adapterId);
    if (!adapter || round.request.sessionId.startsWith(judgeSessionPrefix)) continue;
    let interaction: Interaction;
    try {
      interaction = buildExchange(adapter, redactor, round).interaction;
    } catch (error) {
      send({ type: 'error', message: `shadow scoring could not parse ${round.request.method} ${redactor.path(round.request.path)}: ${(error as Error).message}` });
      continue;
    }
    const sessionId = chain.assign(interaction);
    const session = touch(sessionId, interaction, headerText(round.request.headers, 'x-calltape-case'));
    const declared = interaction.request.tools.length > 0 ? schemasFromTools(interaction.request.tools) : undefined;
    const model = interaction.request.model ?? interaction.response?.model ?? 'unknown';
    const mocked = new Set((interaction.mocked ?? []).map((call) => call.callId));
    for (const call of interaction.response?.output.toolCalls ?? []) {
      const sampleKey = `${interaction.id}:${call.index}`;
      const embeddings = await semanticLookup(call.argumentsRaw, sampleKey);
      const result = evaluateCall(callPolicies, call, declared as { [tool: string]: JsonSchema } | undefined, sampleKey, embeddings ? { embeddings } : {});
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
      session.verdicts.set(sampleKey, verdict.verdict);
    }
    if (sessions.size > policies.maxOpenSessions) {
      const oldest = sessions.values().next().value;
      if (oldest) {
        sessions.delete(oldest.id);
        overflow.push(oldest);
      }
    }
  }
  try {
    store.write(verdicts, []);
  } catch (error) {
    send({ type: 'error', message: `shadow scoring could not store ${verdicts.length} call verdict(s): ${(error as Error).message}` });
  }
  // Acknowledged whatever happened: the proxy thread sends the next batch only after this.
  send({ type: 'batch-done', calls: verdicts });
  if (overflow.length > 0) await endSessions(overflow);
}

function touch(sessionId: string, interaction: Interaction, caseId: string | undefined): OpenSession {
  let session = sessions.get(sessionId);
  if (session) sessions.delete(sessionId);
  else session = { id: sessionId, interactions: [], verdicts: new Map(), caseId: undefined, model: 'unknown', startedAt: interaction.timing.startedAt, lastAt: 0 };
  // Re-inserted: the map's first entry is always the longest idle.
  sessions.set(sessionId, session);
  session.interactions.push(interaction);
  if (session.interactions.length > maxInteractionsPerSession) session.interactions.shift();
  session.lastAt = Date.now();
  session.caseId = caseId ?? session.caseId ?? (cases.has(sessionId) ? sessionId : undefined);
  session.model = interaction.request.model ?? session.model;
  return session;
}

async function endSessions(ended: readonly OpenSession[]): Promise<void> {
  const verdicts: SessionVerdict[] = [];
  for (const session of ended) {
    sessions.delete(session.id);
    // One session's round trips chain by its id; buildTrajectories orders them and pairs tool results.
    const trajectory = buildTrajectories(session.interactions.map((interaction) => ({ ...interaction, sessionId: session.id })))[0];
    if (!trajectory) continue;
    const result = await evaluateSession(sessionPolicies, { ...trajectory, sessionId: session.id }, contextFor(session));
    verdicts.push({
      sessionId: session.id,
      caseId: session.caseId,
      startedAt: session.startedAt,
      endedAt: session.lastAt,
      model: session.model,
      // A run with a failing call is a failing run, whatever the session policies say.
      verdict: [...session.verdicts.values()].includes('fail') ? 'fail' : result.verdict,
      score: result.score,
      turns: trajectory.counts.turns,
      calls: trajectory.counts.calls,
      evaluated: result.evaluated,
      failures: result.failures,
      trajectory: trajectory.calls.map((call) => {
        const interaction = trajectory.turns[call.turn]?.interactionId;
        return { turn: call.turn, tool: call.name, arguments: call.argumentsRaw, verdict: session.verdicts.get(`${interaction ?? ''}:${call.index}`) ?? 'unscored' };
      }),
    });
  }
  if (verdicts.length === 0) return;
  try {
    store.write([], verdicts);
  } catch (error) {
    send({ type: 'error', message: `shadow scoring could not store ${verdicts.length} session verdict(s): ${(error as Error).message}` });
  }
  send({ type: 'sessions', sessions: verdicts });
}

function contextFor(session: OpenSession): SessionContext {
  const apiKey = policies.judge.apiKeyEnv === undefined ? undefined : process.env[policies.judge.apiKeyEnv];
  return {
    caseId: session.caseId,
    scoreCase: async (caseId, trajectory) => {
      const found = cases.get(caseId);
      if (!found) return undefined;
      const run = found.suite.runs[0];
      if (!run) return undefined;
      const result = await scoreCase(found.suite, run, found.testCase, found.index, { session: session.id, trajectory, interactions: session.interactions, error: null, durationMs: 0, agent: null, problems: [] }, { now: new Date(), judges: { code: (spec, run, testCase) => judges().run(spec, run, testCase) } });
      return { status: result.status, score: result.score, problems: result.problems };
    },
    codeJudge: (spec, trajectory, testCase) => judges().run(spec, trajectory, testCase),
    ...(proxyBaseUrl !== undefined ? { llmJudge: createLlmJudge({ baseUrl: proxyBaseUrl, model: policies.judge.model, ...(apiKey ? { apiKey } : {}) }) } : {}),
  };
}

function judges(): CodeJudges {
  codeJudges ??= createCodeJudges({ baseDir: dirname(policies.file) });
  return codeJudges;
}

/** Fetches the embeddings a sampled semantic rule needs for this call; undefined when none applies. */
async function semanticLookup(argumentsRaw: string, sampleKey: string): Promise<((text: string) => readonly number[] | undefined) | undefined> {
  const texts = new Set<string>();
  for (const policy of callPolicies) {
    if (policy.kind !== 'arguments' || !sampled(policy.sample, policy.id, sampleKey)) continue;
    for (const constraint of Object.values(policy.arguments)) {
      if (constraint.matching_strategy === 'semantic' && typeof constraint.value === 'string') texts.add(constraint.value);
    }
  }
  if (texts.size === 0 || proxyBaseUrl === undefined) return undefined;
  collectStrings(parseOrNull(argumentsRaw), texts);
  const model = policies.judge.embeddingModel;
  const missing = [...texts].filter((text) => !vectors.has(`${model}\u0000${text}`));
  if (missing.length > 0) {
    try {
      const apiKey = policies.judge.apiKeyEnv === undefined ? undefined : process.env[policies.judge.apiKeyEnv];
      const fetched = await openAiEmbeddings(proxyBaseUrl, apiKey)(missing, model);
      missing.forEach((text, index) => {
        const vector = fetched[index];
        if (vector) vectors.set(`${model}\u0000${text}`, vector);
      });
      while (vectors.size > 10_000) vectors.delete(vectors.keys().next().value as string);
    } catch (error) {
      send({ type: 'error', message: `shadow scoring could not fetch embeddings: ${(error as Error).message}` });
    }
  }
  return (text) => vectors.get(`${model}\u0000${text}`);
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
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, into);
}

/**
 * Scoring is best effort and traffic comes first: on Linux this thread runs at the lowest CPU
 * priority (nice is per thread there), so when cores are short the proxy thread wins and the
 * bounded queue drops the oldest rounds instead. Elsewhere the thread keeps the default.
 */
function lowerThreadPriority(): void {
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
  } catch {
    // Not Linux, or not allowed: the default priority.
  }
}
