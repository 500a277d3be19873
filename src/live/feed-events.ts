import type { Alert } from './alert-window.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

/** What the WebSocket feed sends, one JSON object per message. */
export type FeedEvent =
  | {
      readonly type: 'call.captured';
      readonly at: number;
      readonly interactionId: string;
      readonly sessionId: string;
      readonly route: string;
      readonly model: string;
      readonly status: number | null;
      readonly firstByteMs: number | null;
      readonly totalMs: number;
    }
  | ({ readonly type: 'call.scored' } & CallVerdict)
  | ({ readonly type: 'session.scored' } & SessionVerdict)
  | ({ readonly type: 'alert' } & Alert)
  | {
      readonly type: 'policies.reloaded';
      readonly at: number;
      readonly ok: boolean;
      readonly message: string;
    };

/** A client's filter: a field left out matches every event. */
export interface FeedFilter {
  readonly session?: string;
  readonly tool?: string;
  readonly verdict?: string;
  readonly types?: ReadonlySet<string>;
}

export function feedFilterOf(query: URLSearchParams): FeedFilter {
  const types = query.get('type');
  return {
    ...(query.get('session') ? { session: query.get('session') as string } : {}),
    ...(query.get('tool') ? { tool: query.get('tool') as string } : {}),
    ...(query.get('verdict') ? { verdict: query.get('verdict') as string } : {}),
    ...(types ? { types: new Set(types.split(',')) } : {}),
  };
}

/** Whether an event passes a filter. Events without the filtered field (alerts have no session) pass only unfiltered. */
export function matchesFilter(event: FeedEvent, filter: FeedFilter): boolean {
  if (filter.types && !filter.types.has(event.type)) return false;
  if (
    filter.session !== undefined &&
    (!('sessionId' in event) || event.sessionId !== filter.session)
  )
    return false;
  if (filter.tool !== undefined) {
    if (event.type === 'call.scored')
      return (
        event.tool === filter.tool &&
        (filter.verdict === undefined || event.verdict === filter.verdict)
      );
    if (event.type === 'session.scored')
      return (
        event.trajectory.some((call) => call.tool === filter.tool) &&
        (filter.verdict === undefined || event.verdict === filter.verdict)
      );
    return false;
  }
  if (filter.verdict !== undefined)
    return (
      (event.type === 'call.scored' || event.type === 'session.scored') &&
      event.verdict === filter.verdict
    );
  return true;
}
