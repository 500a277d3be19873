import { recordHint } from '../proxy/replay-lookup.js';

/**
 * A replay miss told in the words of the command the user is in: the proxy's generic "--mode
 * record" becomes, say, `calltape record --cassette checkout -- npm test`.
 */
export function withRecordHint(message: string, recordWith: string): string {
  return message.replace(recordHint, `Record what is missing with ${recordWith}.`);
}
