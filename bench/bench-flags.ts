/**
 * The benches' command-line flags, read one way: `--quick` (a short smoke run) and flags that
 * take a value (`--rounds 3`, `--only whole`).
 */

/** Whether `--quick` was given: a smoke run, shorter and writing no results. */
export const quick = process.argv.includes('--quick');

/** The word after `name` on the command line, or undefined when the flag is not given. */
export function textFlag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** The number after `name`, or `fallback` when the flag is not given; a flag without a number stops the bench. */
export function numberFlag(name: string, fallback: number): number {
  if (process.argv.indexOf(name) <= 0) return fallback;
  const text = textFlag(name) ?? '';
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new Error(`${name} takes a number, not "${text}"`);
  return value;
}
