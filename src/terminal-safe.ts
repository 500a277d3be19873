/**
 * Control characters a terminal acts on: C0 (but tab and line feed), DEL and C1, which start
 * escape sequences (clear the screen, move the cursor, set the clipboard with OSC 52, paint a
 * fake `PASS` over a line), and the bidirectional overrides that make text read in another order
 * than it is stored.
 */
const controls =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a model or a file made safe to print on a terminal: every control character becomes
 * its visible `\u00XX` escape, so nothing in it reaches the terminal as a command and a reader
 * sees that it was there. Line feeds and tabs stay, for layout.
 */
export function terminalSafe(text: string): string {
  return text.replace(
    controls,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `terminalSafe` on every text inside a JSON-like value (a run result, a report), keeping its shape. */
export function terminalSafeValue<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, field: unknown) =>
    typeof field === 'string' ? terminalSafe(field) : field,
  ) as T;
}
