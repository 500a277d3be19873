import type { IncomingMessage } from 'node:http';
import {
  effectiveRules,
  keyOf,
  keyProfile,
  OrdinalCounter,
  parseBody,
  type MatchKey,
} from '../cassette/match-key.js';
import type { Redactor } from '../cassette/redact.js';
import type { MatchConfig } from '../config/config.js';

/**
 * A request's identity for replay: its canonical key, computed from the redacted path and body
 * exactly as the store worker keys recordings, and its ordinal — the Nth identical request of a
 * cassette and session matches the Nth recording of it.
 */
export class ReplayKeys {
  private readonly rules;
  private readonly profile: string;
  /** One count per cassette. */
  private readonly ordinals = new Map<string, OrdinalCounter>();

  constructor(
    match: MatchConfig,
    private readonly redactor: Redactor,
  ) {
    this.rules = effectiveRules(match);
    this.profile = keyProfile(this.rules);
  }

  keyFor(
    method: string,
    path: string,
    headers: IncomingMessage['headers'],
    bodyText: string,
    cassette: string,
    session: string | undefined,
  ): { match: MatchKey; canonical: ReturnType<typeof keyOf>['canonical'] } {
    const keyed = keyOf(
      method,
      this.redactor.path(path),
      headers,
      parseBody(this.redactor.text(bodyText)),
      this.rules,
    );
    const scope = session ?? '';
    let counter = this.ordinals.get(cassette);
    if (!counter) this.ordinals.set(cassette, (counter = new OrdinalCounter()));
    return {
      match: {
        key: keyed.key,
        profile: this.profile,
        canonical: keyed.text,
        ordinal: counter.next(scope, keyed.key),
        scope,
      },
      canonical: keyed.canonical,
    };
  }
}
