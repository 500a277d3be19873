/** Fields of a case's `expect` renamed when round trips became rounds (#33): old name → new name. */
export const renamedExpectFields: ReadonlyMap<string, string> = new Map([
  ['min_turns', 'min_rounds'],
  ['max_turns', 'max_rounds'],
  ['same_turn', 'same_round'],
]);

/**
 * Warnings for a case's fields under their old names, one line each naming the file, the case
 * and the field. The old names still work (the scorer reads them when the new one is absent);
 * `min_user_turns`/`max_user_turns` keep their names, since user turns are turns.
 */
export function oldFieldWarnings(testCase: unknown, where: string, field = 'expect'): string[] {
  if (typeof testCase !== 'object' || testCase === null) return [];
  const turns: unknown = Object.hasOwn(testCase, 'turns')
    ? (testCase as { readonly turns: unknown }).turns
    : undefined;
  const inTurns = Array.isArray(turns)
    ? turns.flatMap((turn, index) => oldFieldWarnings(turn, where, `turns[${index}].expect`))
    : [];
  const expect: unknown = Object.hasOwn(testCase, 'expect')
    ? (testCase as { readonly expect: unknown }).expect
    : undefined;
  if (typeof expect !== 'object' || expect === null) return inTurns;
  return [
    ...[...renamedExpectFields]
      .filter(([old]) => Object.hasOwn(expect, old))
      .map(
        ([old, renamed]) =>
          `${where}: ${field}.${old}: renamed ${field}.${renamed} (LLM round trips are rounds; turns are the user's); the old name still works for now`,
      ),
    ...inTurns,
  ];
}
