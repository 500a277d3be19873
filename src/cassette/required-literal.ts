/** Characters that mean only themselves in RE2 syntax outside a character class. */
const plain = /^[A-Za-z0-9_\-:/=@#%&,;<>!~ '"]$/;

/**
 * A literal that starts every match of a user pattern (RE2 syntax), read off its source: the
 * characters before the first that has a meaning in the syntax, less the last of them when a
 * quantifier follows it. Undefined when there is none of at least two characters, or when a
 * match could do without it (an alternation anywhere, case-insensitive flags, and any `(?…)`
 * group: a quantifier after an inline flag group binds to the character before it, so `=a(?i)*`
 * matches `=`). A text that does not contain it cannot match, so the pattern need not run over
 * that text at all.
 */
export function requiredLiteral(source: string, flags: string): string | undefined {
  if (flags.includes('i') || source.includes('|') || source.includes('(?')) return undefined;
  let end = 0;
  while (end < source.length && plain.test(source.charAt(end))) end++;
  if (end < source.length && '?*+{'.includes(source.charAt(end))) end--;
  return end >= 2 ? source.slice(0, end) : undefined;
}
