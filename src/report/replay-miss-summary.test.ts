import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  groupReplayMisses,
  mergeReplayMisses,
  missedCaseLine,
  replayMissText,
} from './replay-miss-summary.js';

const command = 'calltape test weather.json --mode record';
const systemPrompt = { field: 'messages[0].content', meaning: 'the system prompt' };

describe('groupReplayMisses', () => {
  it('tells 22 misses of one cause once, and another cause after it', () => {
    const misses = [
      ...Array.from({ length: 22 }, (_, at) => ({ case: `TC-${at + 1}`, ...systemPrompt })),
      { case: 'TC-23', field: 'tools[1].function.name', meaning: null },
    ];
    const summary = groupReplayMisses(misses.reverse(), command);
    expect(summary?.groups.map((group) => [group.field, group.cases.length])).toEqual([
      ['messages[0].content', 22],
      ['tools[1].function.name', 1],
    ]);
    expect(summary && replayMissText(summary)).toEqual({
      line: '22 cases missed: their requests changed at messages[0].content (the system prompt), 1 changed at tools[1].function.name',
      differences: [],
      command,
    });
  });

  it('says when no recording was near, and nothing when nothing missed', () => {
    const summary = groupReplayMisses([{ case: 'a', field: null, meaning: null }], command);
    expect(summary && replayMissText(summary).line).toBe(
      '1 case missed: its request matched no similar recording',
    );
    expect(groupReplayMisses([], command)).toBeUndefined();
  });

  it('points a missed case at the cause told once', () => {
    const summary = groupReplayMisses([{ case: 'a', ...systemPrompt }], command);
    expect(missedCaseLine(summary, 'a')).toBe(
      'replay miss: its request changed at messages[0].content (the system prompt) (see above)',
    );
    expect(missedCaseLine(summary, 'b')).toBeUndefined();
  });

  it('merges the summaries of shards into one grouping', () => {
    const merged = mergeReplayMisses([
      groupReplayMisses([{ case: 'a', ...systemPrompt }], command),
      undefined,
      groupReplayMisses([{ case: 'b', ...systemPrompt }], command),
    ]);
    expect(merged?.groups).toEqual([{ ...systemPrompt, cases: ['a', 'b'] }]);
    expect(mergeReplayMisses([undefined])).toBeUndefined();
  });

  it('keeps every case once, in one group per distinct cause', () => {
    const cause = fc.record({
      field: fc.option(fc.constantFrom('model', 'messages[0].content', 'tools[0]', '__proto__')),
      meaning: fc.option(fc.constantFrom('the model', 'the system prompt')),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ case: fc.string(), cause }), { selector: (item) => item.case }),
        (items) => {
          const summary = groupReplayMisses(
            items.map((item) => ({ case: item.case, ...item.cause })),
            command,
          );
          const groups = summary?.groups ?? [];
          expect(groups.flatMap((group) => group.cases).sort()).toEqual(
            items.map((item) => item.case).sort(),
          );
          const causes = groups.map((group) => JSON.stringify([group.field, group.meaning]));
          expect(new Set(causes).size).toBe(groups.length);
          for (let at = 1; at < groups.length; at++)
            expect(groups[at - 1]?.cases.length).toBeGreaterThanOrEqual(
              groups[at]?.cases.length ?? 0,
            );
        },
      ),
    );
  });
});
