/**
 * The shadow scorer's worker thread: parses captured rounds, hands them to `ShadowScorer`, ends
 * sessions once idle, writes everything to the shadow database and reports back. Work is done
 * one message at a time, in order; the proxy thread never waits for any of it.
 */
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildInteraction } from '../cassette/build-exchange.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import { openAiEmbeddings } from '../cassette/embedding-cache.js';
import { headerText } from '../cassette/header-text.js';
import { createRedactor } from '../cassette/redact.js';
import { adapterById } from '../providers/adapters.js';
import { createCodeJudges, type CodeJudges } from '../judges/code-judges.js';
import { createLlmJudge } from '../judges/llm-judge.js';
import { isCalltapeSession } from '../trace/build-trajectories.js';
import type { Interaction } from '../trace/trace.js';
import type { Policies } from './policy-types.js';
import type { FromShadowWorker, ShadowWorkerData, ToShadowWorker } from './shadow-protocol.js';
import type { OpenSession } from './open-sessions.js';
import { roundErrorVerdict } from './scoring-error-verdict.js';
import { ShadowScorer } from './shadow-scorer.js';
import { ShadowStore } from './shadow-store.js';
import { VerdictWriter } from './verdict-writer.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

const port = parentPort;
if (!port) throw new Error('shadow-worker must run as a worker thread');
lowerThreadPriority();
const send = (message: FromShadowWorker): void => port.postMessage(message);
const data = workerData as ShadowWorkerData;
const redactor = createRedactor(data.redactHeaders, data.bodyPatterns, data.builtinPatterns);
const store = new ShadowStore(data.database, data.retention);
const limits = { maxDecodedBytes: data.maxDecodedBytes };

/** Verdicts on their way to the store: gathered, and kept through a store outage (bounded). */
const writer = new VerdictWriter(
  (calls, sessions) => {
    store.write(calls, sessions);
  },
  (message) => send({ type: 'error', message }),
);
const storeLater = (calls: readonly CallVerdict[], sessions: readonly SessionVerdict[]): void =>
  writer.add(calls, sessions);

let codeJudges: CodeJudges | undefined;
let proxyBaseUrl: string | undefined;
/** Embedding vectors fetched for semantic rules, by model and text (bounded). */
const vectors = new Map<string, readonly number[]>();
const apiKey = (): string | undefined => {
  const name = scorer.current.judge.apiKeyEnv;
  return name === undefined ? undefined : process.env[name];
};
const scorer: ShadowScorer = new ShadowScorer(data.policies, {
  codeJudge: (spec, trajectory, testCase) => {
    codeJudges ??= createCodeJudges({ baseDir: dirname(scorer.current.file) });
    return codeJudges.run(spec, trajectory, testCase);
  },
  llmJudge: (spec, trajectory, testCase) => {
    if (proxyBaseUrl === undefined)
      return Promise.reject(new Error('the proxy is not listening yet'));
    const key = apiKey();
    return createLlmJudge({
      baseUrl: proxyBaseUrl,
      model: scorer.current.judge.model,
      ...(key ? { apiKey: key } : {}),
    })(spec, trajectory, testCase);
  },
  embeddings: async (texts, model) => {
    const missing = texts.filter((text) => !vectors.has(`${model}\u0000${text}`));
    if (missing.length > 0 && proxyBaseUrl !== undefined) {
      try {
        const fetched = await openAiEmbeddings(proxyBaseUrl, apiKey())(missing, model);
        missing.forEach((text, index) => {
          const vector = fetched[index];
          if (vector) vectors.set(`${model}\u0000${text}`, vector);
        });
        while (vectors.size > 10_000) vectors.delete(vectors.keys().next().value as string);
      } catch (error) {
        send({
          type: 'error',
          message: `shadow scoring could not fetch embeddings: ${(error as Error).message}`,
        });
      }
    }
    return (text) => vectors.get(`${model}\u0000${text}`);
  },
});

function usePolicies(next: Policies): void {
  scorer.usePolicies(next);
  // Judge modules load again from the new policies' folder (and pick up edits).
  const judges = codeJudges;
  codeJudges = undefined;
  void judges?.close();
}

let work: Promise<void> = Promise.resolve();
/** Runs tasks strictly one after another: a slow judge holds back the queue, which the proxy thread bounds. */
const enqueue = (task: () => Promise<void> | void): void => {
  work = work.then(task).catch((error: unknown) =>
    send({
      type: 'error',
      message: `shadow scoring failed: ${(error as Error).stack ?? String(error)}`,
    }),
  );
};

port.on('message', (message: ToShadowWorker) => {
  switch (message.type) {
    case 'rounds':
      enqueue(() => scoreRounds(message.rounds));
      break;
    case 'mcp-calls':
      // Kept (bounded) until their sessions end: cheap, so taken at once rather than queued behind scoring.
      scorer.noteMcpCalls(message.calls);
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
        await endSessions(scorer.takeAll());
        await codeJudges?.close();
        writer.flush();
        writer.stop();
        store.close();
        send({ type: 'closed' });
      });
      break;
  }
});

const idleTimer = setInterval(() => {
  const idle = scorer.takeIdle(Date.now());
  if (idle.length > 0) enqueue(() => endSessions(idle));
}, 250);

async function scoreRounds(rounds: readonly CapturedRound[]): Promise<void> {
  const verdicts: CallVerdict[] = [];
  const evicted: OpenSession[] = [];
  try {
    for (const round of rounds) {
      const adapter = adapterById(round.adapterId);
      // calltape's own judge calls go through the proxy too; they are not an agent's.
      if (!adapter || isCalltapeSession(round.request.sessionId)) continue;
      let interaction: Interaction;
      try {
        interaction = buildInteraction(adapter, redactor, round, limits);
      } catch (error) {
        send({
          type: 'error',
          message: `shadow scoring could not parse ${round.request.method} ${redactor.path(round.request.path)}: ${(error as Error).message}`,
        });
        verdicts.push(
          roundErrorVerdict(
            {
              at: round.request.startedAt,
              interactionId: round.request.id,
              sessionId: round.request.sessionId,
              wire: adapter.id,
            },
            // The message may quote the round: redacted as everything stored from it is.
            redactor.text((error as Error).message),
            'read',
          ),
        );
        continue;
      }
      // Never throws: a call or round that cannot be scored comes back as an error verdict.
      const scored = await scorer.scoreInteraction(
        interaction,
        headerText(round.request.headers, 'x-calltape-case'),
        Date.now(),
      );
      verdicts.push(...scored.verdicts);
      evicted.push(...scored.evicted);
    }
    storeLater(verdicts, []);
  } catch (error) {
    send({
      type: 'error',
      message: `shadow scoring failed on a batch of ${rounds.length}: ${(error as Error).stack ?? String(error)}`,
    });
  }
  // Acknowledged whatever happened: the proxy thread keeps at most two batches unacknowledged.
  send({ type: 'batch-done', calls: verdicts });
  if (evicted.length > 0) await endSessions(evicted);
}

async function endSessions(ended: readonly OpenSession[]): Promise<void> {
  const verdicts = await scorer.endSessions(ended);
  if (verdicts.length === 0) return;
  storeLater([], verdicts);
  send({ type: 'sessions', sessions: verdicts });
}

/**
 * Scoring is best effort and traffic comes first. On Linux this thread asks for SCHED_IDLE (it
 * runs only when a core would otherwise idle) through util-linux `chrt`, else the lowest nice
 * value (both are per thread there), so under CPU contention the proxy thread always wins and
 * the bounded queue drops the oldest rounds instead. Elsewhere the thread keeps the default.
 */
function lowerThreadPriority(): void {
  let tid: number;
  try {
    tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
  } catch {
    return;
  }
  if (!Number.isInteger(tid) || tid <= 0) return;
  try {
    setPriority(tid, 19);
  } catch {
    // Not allowed: the default priority.
  }
  // Without chrt (or permission) the nice value above stays in force.
  spawnSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 2_000 });
}
