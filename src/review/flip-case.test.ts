import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../trace/trace.js';
import { flipCase } from './flip-case.js';

const provenance = { source: 'generated', tool: 'search', kind: 'positive' };

describe('flipCase', () => {
  it('turns an expected tool into a forbidden one, dropping its arguments, and marks the kind', () => {
    expect(
      flipCase({
        test_id: 'a',
        prompt: 'refunds?',
        expected_tool: 'search',
        arguments: { query: 'refund' },
        extra_arguments: 'ignore',
        review: 'pending',
        provenance,
      }),
    ).toEqual({
      value: {
        test_id: 'a',
        prompt: 'refunds?',
        never: ['search'],
        review: 'pending',
        provenance: { ...provenance, kind: 'negative' },
      },
    });
  });

  it("turns a promoted case's expected calls into forbidden tools, keeping its other trajectory limits", () => {
    expect(
      flipCase({
        test_id: 'p',
        expect: {
          mode: 'exact',
          calls: [{ tool: 'transfer', arguments: { amount: 1 } }, 'transfer', 'lookup'],
          max_steps: 3,
        },
        review: 'pending',
        provenance: { source: 'promoted', session: 's' },
      }),
    ).toEqual({
      value: {
        test_id: 'p',
        expect: { max_steps: 3 },
        never: ['transfer', 'lookup'],
        review: 'pending',
        provenance: { source: 'promoted', session: 's', kind: 'negative' },
      },
    });
  });

  it('refuses a case that names no tool, saying to edit it', () => {
    expect(flipCase({ test_id: 'n', expected_tool: null })).toEqual({
      refused: expect.stringContaining('edit it (e)') as string,
    });
  });

  it('flipped twice, a case expects its tool again (arguments are not brought back)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z_]{1,12}$/),
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.string()),
        (tool, args) => {
          const start: { [field: string]: JsonValue } = {
            test_id: 't',
            expected_tool: tool,
            arguments: args,
            review: 'pending',
            provenance,
          };
          const once = flipCase(start);
          if (!('value' in once)) throw new Error(once.refused);
          const twice = flipCase(once.value);
          expect(twice).toEqual({
            value: { test_id: 't', expected_tool: tool, review: 'pending', provenance },
          });
        },
      ),
    );
  });
});
