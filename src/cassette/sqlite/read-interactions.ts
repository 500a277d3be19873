import type { Interaction } from '../../trace/trace.js';
import { requireCassette } from './cassette-files.js';
import { SqliteStore } from './sqlite-store.js';

/** Every interaction a cassette holds (or one session's), in capture order: the input of `buildTrajectories`. */
export function readInteractions(
  cassette: string,
  filter: { readonly sessionId?: string } = {},
): Interaction[] {
  requireCassette(cassette);
  const store = new SqliteStore(cassette, { readonly: true });
  try {
    return store.interactions(filter);
  } finally {
    store.close();
  }
}
