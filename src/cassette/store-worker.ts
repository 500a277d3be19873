/**
 * The store's worker thread: redacts, parses and writes captured rounds, so SQLite and parsing
 * never take time from the thread that forwards bytes. It owns the only write connection.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { adapterById } from '../providers/adapters.js';
import { buildExchange, findLeakedSecret } from './build-exchange.js';
import type { CapturedRound } from './captured-round.js';
import { keyOf, keyProfile, OrdinalCounter, parseBody } from './match-key.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { createRedactor } from './redact.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { FromStoreWorker, StoreWorkerData, ToStoreWorker } from './store-protocol.js';

const port = parentPort;
if (!port) throw new Error('store-worker must run as a worker thread');
const send = (message: FromStoreWorker): void => port.postMessage(message);
const data = workerData as StoreWorkerData;

let store: SqliteStore;
let rekeyed: number;
try {
  store = new SqliteStore(data.cassette);
  rekeyed = store.ensureKeyProfile(keyProfile(data.match), (row) => {
    const text = new TextDecoder().decode(row.body);
    const { key, text: canonical } = keyOf(row.method, row.path, row.headers, parseBody(text), data.match);
    return { key, text: canonical };
  });
} catch (error) {
  send({ type: 'failed', message: (error as Error).message });
  process.exit(0);
}
const redactor = createRedactor(data.redactHeaders, data.bodyPatterns);
const profile = keyProfile(data.match);
const ordinals = new OrdinalCounter();
send({ type: 'ready', rekeyed });

/** Keys a round the proxy did not key itself (record mode keeps that work off its thread). */
function withMatch(round: CapturedRound): CapturedRound {
  if (round.match) return round;
  const { request } = round;
  const keyed = keyOf(request.method, redactor.path(request.path), request.headers, parseBody(redactor.text(new TextDecoder().decode(request.body))), data.match);
  const scope = request.sessionId === request.id ? '' : request.sessionId;
  return { ...round, match: { key: keyed.key, profile, canonical: keyed.text, ordinal: ordinals.next(scope, keyed.key), scope } };
}

port.on('message', (message: ToStoreWorker) => {
  if (message.type === 'close') {
    store.close();
    send({ type: 'closed' });
    return;
  }
  const exchanges: RecordedExchange[] = [];
  for (const round of message.rounds) {
    const adapter = adapterById(round.adapterId);
    try {
      if (!adapter) continue;
      const exchange = buildExchange(adapter, redactor, withMatch(round));
      const leak = findLeakedSecret(exchange, round.secrets);
      if (leak) {
        send({ type: 'write-error', message: `refused to store ${round.request.method} ${exchange.interaction.path}: a credential the agent sent appears in the ${leak}; add a redact.bodyPatterns rule that matches it`, lost: 1 });
        continue;
      }
      exchanges.push(exchange);
    } catch (error) {
      send({ type: 'write-error', message: `cannot record ${round.request.method} ${round.request.path}: ${(error as Error).message}`, lost: 1 });
    }
  }
  try {
    store.append(exchanges);
  } catch (error) {
    send({ type: 'write-error', message: (error as Error).message, lost: exchanges.length });
  }
});
