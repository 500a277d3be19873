import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { decodeContent } from '../cassette/decode-content.js';
import { headerText } from '../cassette/header-text.js';
import type { Recording } from '../cassette/sqlite/cassette-reader.js';
import { CalltapeError } from '../errors.js';
import {
  runToolLoop,
  type LoopRound,
  type RoundOutcome,
  type ToolLoopOptions,
} from '../mocks/tool-loop.js';
import { bodyBytes, bodyText } from '../providers/body-text.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { WireRoute } from '../providers/wire-route.js';
import type { JsonValue } from '../trace/trace.js';
import type { UpstreamOutcome } from './forward-upstream.js';
import { agentResponseHeaders } from './headers.js';
import { heldAnswerTooLarge } from './guard/capture-budget.js';
import { sendError } from './send-error.js';

/** One upstream answer for a loop round: from the cassette, or forwarded and collected. */
export type RoundSource =
  | { readonly kind: 'recording'; readonly recording: Recording }
  | { readonly kind: 'upstream'; readonly outcome: UpstreamOutcome };

export interface MockedRouteContext extends Omit<ToolLoopOptions, 'roundTrip' | 'form'> {
  readonly response: ServerResponse;
  /** The agent request's route: the form the agent asked for may come from its path. */
  readonly route: WireRoute;
  readonly agentBody: JsonValue;
  /** The agent's bytes: sent as they are when nothing is spliced in. */
  readonly agentBytes: Buffer;
  /** Answers a request body: a recording (replay, auto hit) or the upstream (record, auto miss); throws CalltapeError on a miss or a failure before headers. */
  answer(
    body: Buffer,
  ): Promise<{ readonly source: RoundSource; readonly record: (outcome: RoundOutcome) => void }>;
  /** `limits.maxDecodedBytes`: a compressed answer that decodes to more is refused, not held. */
  readonly maxDecodedBytes: number;
  /** Counts an answer calltape refused (strict tools), for the run's exit code. */
  refused(error: CalltapeError): void;
}

/**
 * The route for a request while mock tools are in force: runs the tool loop with each round
 * answered from the cassette or the upstream, then sends the agent its turn in the form it asked
 * for. Bodies are read whole here (the loop must see a turn entire), so requests under mocks are
 * buffered where every other request streams.
 */
export async function answerWithMocks(context: MockedRouteContext): Promise<void> {
  const { adapter, response } = context;
  const form = adapter.requestedForm(context.agentBody, context.route);
  let outcome: Awaited<ReturnType<typeof runToolLoop>>;
  try {
    outcome = await runToolLoop(context.agentBody, {
      ...context,
      form,
      roundTrip: async (body): Promise<LoopRound> => {
        const bytes =
          body === context.agentBody ? context.agentBytes : Buffer.from(JSON.stringify(body));
        const { source, record } = await context.answer(bytes);
        const round = roundOf(adapter, context.route, source, context.maxDecodedBytes);
        if (round) return { ...round, record };
        record({ mocked: [], hidden: false });
        throw heldAnswerTooLarge('limits.maxDecodedBytes', context.maxDecodedBytes);
      },
    });
  } catch (error) {
    if (!(error instanceof CalltapeError)) throw error;
    sendError(response, adapter, error);
    return;
  }
  if (outcome.kind === 'error') {
    if (outcome.error.code === 'STRICT_TOOLS') context.refused(outcome.error);
    sendError(response, adapter, outcome.error);
    return;
  }
  // The round is the one roundTrip built below, headers and all.
  const round = outcome.round as LoopRound & {
    readonly headers: Record<string, string | string[]>;
    readonly cut: boolean;
  };
  const headers = { ...round.headers };
  delete headers['content-length'];
  delete headers['content-encoding'];
  delete headers['transfer-encoding'];
  const body = bodyBytes(adapter, outcome.body ?? round.body);
  if (!String(headers['content-type'] ?? '').includes('text/event-stream'))
    headers['content-length'] = String(body.length);
  response.writeHead(round.status, headers);
  if (round.cut) response.destroy();
  else response.end(body);
}

/** The loop's view of an answer; undefined when its body decodes to more than `maxDecodedBytes` (a decompression bomb). */
function roundOf(
  adapter: ProviderAdapter,
  route: WireRoute,
  source: RoundSource,
  maxDecodedBytes: number,
):
  | (Omit<LoopRound, 'record'> & {
      readonly headers: Record<string, string | string[]>;
      readonly cut: boolean;
    })
  | undefined {
  const raw =
    source.kind === 'recording'
      ? {
          status: source.recording.httpStatus,
          headers: source.recording.headers ?? {},
          body: source.recording.body ?? Buffer.alloc(0),
          ending: (source.recording.ending ?? 'finished') as UpstreamOutcome['ending'],
        }
      : {
          status: source.outcome.status ?? 502,
          headers: agentResponseHeaders((source.outcome.headers ?? {}) as IncomingHttpHeaders),
          body: Buffer.concat(source.outcome.chunks),
          ending: source.outcome.ending,
        };
  const decoded = decodeContent(
    raw.body,
    headerText(raw.headers, 'content-encoding'),
    maxDecodedBytes,
  );
  if (decoded.truncated !== undefined) return undefined;
  const parsed = adapter.parseResponse({
    httpStatus: raw.status,
    contentType: headerText(raw.headers, 'content-type')?.toLowerCase(),
    body: [decoded.bytes],
    ending: raw.ending,
    route,
  });
  return {
    status: raw.status,
    headers: raw.headers,
    body: bodyText(adapter, decoded.bytes),
    response: parsed.response,
    complete: parsed.status === 'complete',
    cut: raw.ending !== 'finished',
  };
}
