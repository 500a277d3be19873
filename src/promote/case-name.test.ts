import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseName, maxCaseNameLength } from './case-name.js';

const none: ReadonlySet<string> = new Set();

describe('caseName: a promoted case is named from its prompt', () => {
  it('slugs the prompt into a readable name', () => {
    expect(caseName('Show my savings balance in euros', 'S-1', none)).toBe(
      'show-my-savings-balance-in-euros',
    );
    expect(caseName("Überweise 100 an Anna's Konto!", 'S-1', none)).toBe(
      'ueberweise-100-an-annas-konto',
    );
  });

  it('cuts a long prompt at a word boundary', () => {
    expect(
      caseName("Please wire $1,200.50 to Acme Corp's checking account today", 'S-1', none),
    ).toBe('please-wire-1-200-50-to-acme-corps-checking');
  });

  it('falls back to the session id when the prompt gives no letters', () => {
    expect(caseName('1234 !!', 'S-1', none)).toBe('session-S-1');
    expect(caseName('日本語', 'S-1', none)).toBe('session-S-1');
    expect(caseName(undefined, 'a/../b c', none)).toBe('session-a-b-c');
  });

  it('suffixes -2, -3 … when the name is taken', () => {
    const taken = new Set(['transfer-big-please', 'transfer-big-please-2']);
    expect(caseName('transfer big please', 'S-1', taken)).toBe('transfer-big-please-3');
  });
});

describe('caseName properties', () => {
  const prompt = fc.option(fc.string({ unit: 'grapheme', maxLength: 300 }), { nil: undefined });
  const sessionId = fc.string({ minLength: 1, maxLength: 120 });
  const names = fc.uniqueArray(fc.string({ maxLength: 60 }), { maxLength: 20 });

  it('is never a taken name, is a plain file name, and is bounded', () => {
    fc.assert(
      fc.property(prompt, sessionId, names, (text, id, taken) => {
        const name = caseName(text, id, new Set(taken));
        expect(taken).not.toContain(name);
        expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(name.length).toBeLessThanOrEqual(80 + 1 + String(taken.length + 1).length);
      }),
    );
  });

  it('names a prompt with letters by the prompt alone, within the bound, before any suffix', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.?!']{0,200}$/),
        sessionId,
        (text, id) => {
          const name = caseName(text, id, none);
          expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
          expect(name.length).toBeLessThanOrEqual(maxCaseNameLength);
          expect(caseName(text, 'another session', none)).toBe(name);
        },
      ),
    );
  });

  it('is stable: the same prompt, session and suite give the same name', () => {
    fc.assert(
      fc.property(prompt, sessionId, names, (text, id, taken) => {
        expect(caseName(text, id, new Set(taken))).toBe(caseName(text, id, new Set(taken)));
      }),
    );
  });

  it('gives each of a batch of sessions with the same prompt a name of its own', () => {
    fc.assert(
      fc.property(
        prompt,
        fc.uniqueArray(sessionId, { minLength: 1, maxLength: 10 }),
        (text, ids) => {
          const taken = new Set<string>();
          for (const id of ids) taken.add(caseName(text, id, taken));
          expect(taken.size).toBe(ids.length);
        },
      ),
    );
  });
});
