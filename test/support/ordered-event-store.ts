import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * An MCP event store that replays in the order events were stored. The SDK's example store sorts
 * ids of the form `stream_<ms>_<random>`, so two events stored in the same millisecond replay in
 * random order, and a resume can skip the very answer it came for.
 */
export class OrderedEventStore implements EventStore {
  readonly #events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}.${String(this.#events.length)}`;
    this.#events.push({ id, streamId, message });
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.#events.find((event) => event.id === eventId)?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const start = this.#events.findIndex((event) => event.id === lastEventId);
    const streamId = this.#events[start]?.streamId;
    if (streamId === undefined) return '';
    for (const event of this.#events.slice(start + 1))
      if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
