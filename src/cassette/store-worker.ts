/**
 * The store's worker thread: redacts, parses and writes captured rounds, so SQLite and parsing
 * never take time from the thread that forwards bytes. It owns the write connection of every
 * cassette the proxy records into.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { adapterById } from '../providers/adapters.js';
import { ConversationChain } from '../trace/conversation-chain.js';
import { buildInteraction } from './build-exchange.js';
import { buildInRuns, type RunLimits } from './build-in-runs.js';
import { buildStoredExchange } from './build-stored-exchange.js';
import { diffToolCalls } from './diff-tool-calls.js';
import type { CapturedRound } from './captured-round.js';
import { keyOf, keyProfile, OrdinalCounter, storedRequestKeyer } from './match-key.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { createRedactor } from './redact.js';
import { roundBytes } from './round-size.js';
import { openForReplay } from './sqlite/replay-cassette.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type {
  FromStoreWorker,
  RoutedRound,
  StoreWorkerData,
  ToStoreWorker,
} from './store-protocol.js';

const port = parentPort;
if (!port) throw new Error('store-worker must run as a worker thread');
const send = (message: FromStoreWorker): void => port.postMessage(message);
const data = workerData as StoreWorkerData;
const redactor = createRedactor(data.redactHeaders, data.bodyPatterns, data.builtinPatterns);
const profile = keyProfile(data.match);
const handledBytes = new BigInt64Array(data.handledBytes);

interface OpenCassette {
  readonly store: SqliteStore;
  /** Numbers identical requests the proxy did not key itself, per cassette. */
  readonly ordinals: OrdinalCounter;
  /** Puts round trips without an explicit session into the conversation they continue. */
  readonly chain: ConversationChain;
}
const cassettes = new Map<string, OpenCassette>();
/** Cassettes diff mode compares with: read, never written. */
const compared = new Map<string, SqliteStore>();

function openToCompare(path: string): SqliteStore {
  let store = compared.get(path);
  if (!store) {
    store = new SqliteStore(path, { readonly: true, database: openForReplay(path, data.match).db });
    compared.set(path, store);
  }
  return store;
}

function open(path: string): { cassette: OpenCassette; rekeyed: number } {
  const existing = cassettes.get(path);
  if (existing) return { cassette: existing, rekeyed: 0 };
  const store = new SqliteStore(path);
  const rekeyed = store.ensureKeyProfile(profile, storedRequestKeyer(data.match));
  const cassette = { store, ordinals: new OrdinalCounter(), chain: new ConversationChain() };
  cassettes.set(path, cassette);
  return { cassette, rekeyed };
}

function exchangeOf(round: CapturedRound, ordinals: OrdinalCounter): RecordedExchange | undefined {
  const adapter = adapterById(round.adapterId);
  if (!adapter) return undefined;
  const { request } = round;
  // Keys a round the proxy did not key itself (record mode keeps that work off its thread).
  return buildStoredExchange(
    adapter,
    redactor,
    round,
    (body, path) => {
      const keyed = keyOf(request.method, path, request.headers, body, data.match);
      const scope = request.sessionId === request.id ? '' : request.sessionId;
      return {
        key: keyed.key,
        profile,
        canonical: keyed.text,
        ordinal: ordinals.next(scope, keyed.key),
        scope,
      };
    },
    { maxDecodedBytes: data.maxDecodedBytes },
  );
}

/**
 * Writes a drain's rounds, per cassette, in runs (`buildAhead`): a run is built, then inserted in
 * one transaction. Building a whole drain first held every decoded copy of sixty 1 MB answers at
 * once; building inside the insert's transaction would hold SQLite's write lock, which another
 * process recording into the same file waits on, for all of the building too (issue 21).
 */
function write(rounds: readonly RoutedRound[]): void {
  const byCassette = new Map<string, CapturedRound[]>();
  for (const { cassette: path, round } of rounds) {
    const batch = byCassette.get(path);
    if (batch) batch.push(round);
    else byCassette.set(path, [round]);
  }
  for (const [path, captured] of byCassette) {
    let cassette: OpenCassette;
    try {
      cassette = open(path).cassette;
    } catch (error) {
      for (const round of captured) reportLost(path, round, error);
      continue;
    }
    for (const run of buildInRuns(
      captured,
      (round) => storedExchange(path, cassette, round),
      roundBytes,
      buildAhead,
    )) {
      try {
        cassette.store.append(run);
      } catch (error) {
        send({
          type: 'write-error',
          message: `${path}: ${(error as Error).message}`,
          lost: run.length,
        });
      }
    }
  }
}

/**
 * The most a run holds. A run is one commit, so small rounds go in runs as long as the batches the
 * proxy posts (256): one commit a drain, as before. The byte bound is what limits a run of large
 * answers. Building each exchange only when the insert asked for it cost a whole answer ~8% more
 * worker CPU (building and inserting took turns); runs keep each stretch long.
 */
const buildAhead: RunLimits = { items: 256, bytes: 4 * 1024 * 1024 };

/** The exchange stored for a round, in its conversation; undefined (reported lost) when it cannot be built. */
function storedExchange(
  path: string,
  cassette: OpenCassette,
  round: CapturedRound,
): RecordedExchange | undefined {
  try {
    const made = exchangeOf(round, cassette.ordinals);
    if (!made) return undefined;
    const session = cassette.chain.assign(made.interaction);
    return session === made.interaction.sessionId
      ? made
      : { ...made, interaction: { ...made.interaction, sessionId: session } };
  } catch (error) {
    reportLost(path, round, error);
    return undefined;
  }
}

function reportLost(path: string, round: CapturedRound, error: unknown): void {
  send({
    type: 'write-error',
    message: `${path}: ${round.request.method} ${redactor.path(round.request.path)}: ${(error as Error).message}`,
    lost: 1,
  });
}

/**
 * Rounds that arrived while the worker was busy, written together: one transaction (one commit,
 * the dominant cost of a small write) per drain rather than per message, so batches grow with
 * the load instead of the commit rate growing with it.
 */
let pending: RoutedRound[] = [];
let pendingBytes = 0;
let draining = false;
function drain(): void {
  draining = false;
  if (pending.length === 0) return;
  const rounds = pending;
  const bytes = pendingBytes;
  pending = [];
  pendingBytes = 0;
  write(rounds);
  Atomics.add(handledBytes, 0, BigInt(bytes));
}

port.on('message', (message: ToStoreWorker) => {
  if (message.type === 'rounds') {
    for (const routed of message.rounds) {
      pending.push(routed);
      pendingBytes += roundBytes(routed.round);
    }
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
    return;
  }
  // Everything else is ordered after the rounds that came before it.
  drain();
  switch (message.type) {
    case 'open':
      try {
        send({
          type: 'opened',
          cassette: message.cassette,
          rekeyed: open(message.cassette).rekeyed,
        });
      } catch (error) {
        send({
          type: 'open-failed',
          cassette: message.cassette,
          message: (error as Error).message,
        });
      }
      return;
    case 'diff':
      try {
        const adapter = adapterById(message.round.adapterId);
        const live =
          adapter &&
          buildInteraction(adapter, redactor, message.round, {
            maxDecodedBytes: data.maxDecodedBytes,
          });
        const recorded = openToCompare(message.cassette).interaction(message.recordingId);
        const lines =
          live?.status !== 'complete'
            ? [`live answer ${live?.status ?? 'missing'}: ${live?.error ?? ''}`]
            : diffToolCalls(recorded?.response?.output, live.response?.output);
        send({
          type: 'diffed',
          cassette: message.cassette,
          recordingId: message.recordingId,
          request: `${message.round.request.method} ${redactor.path(message.round.request.path)}`,
          lines,
        });
      } catch (error) {
        send({
          type: 'write-error',
          message: `${message.cassette}: cannot diff against ${message.recordingId}: ${(error as Error).message}`,
          lost: 0,
        });
      }
      return;
    case 'release':
      cassettes.get(message.cassette)?.store.close();
      cassettes.delete(message.cassette);
      return;
    case 'close':
      for (const store of [
        ...[...cassettes.values()].map((cassette) => cassette.store),
        ...compared.values(),
      ])
        store.close();
      cassettes.clear();
      compared.clear();
      send({ type: 'closed' });
  }
});
