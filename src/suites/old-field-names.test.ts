import { describe, expect, it } from 'vitest';
import { oldFieldWarnings } from './old-field-names.js';

describe('old field names (rounds were turns)', () => {
  it('warns about each old expect field, naming the file, the case, the field and its new name', () => {
    expect(
      oldFieldWarnings(
        { expect: { min_turns: 1, max_turns: 3, same_turn: ['a', 'b'], max_user_turns: 2 } },
        'suites/s.yaml: case "T"',
      ),
    ).toEqual([
      'suites/s.yaml: case "T": expect.min_turns: renamed expect.min_rounds (LLM round trips are rounds; turns are the user\'s); the old name still works for now',
      'suites/s.yaml: case "T": expect.max_turns: renamed expect.max_rounds (LLM round trips are rounds; turns are the user\'s); the old name still works for now',
      'suites/s.yaml: case "T": expect.same_turn: renamed expect.same_round (LLM round trips are rounds; turns are the user\'s); the old name still works for now',
    ]);
  });

  it('says nothing for the new names, user turns, or a case without expect', () => {
    expect(oldFieldWarnings({ expect: { max_rounds: 2, min_user_turns: 1 } }, 'f')).toEqual([]);
    expect(oldFieldWarnings({ never: ['x'] }, 'f')).toEqual([]);
    expect(oldFieldWarnings(null, 'f')).toEqual([]);
  });

  it("warns about a conversation turn's old fields, naming the turn", () => {
    expect(
      oldFieldWarnings({ turns: [{ user: 'a' }, { user: 'b', expect: { max_turns: 1 } }] }, 'f'),
    ).toEqual([
      "f: turns[1].expect.max_turns: renamed turns[1].expect.max_rounds (LLM round trips are rounds; turns are the user's); the old name still works for now",
    ]);
  });
});
