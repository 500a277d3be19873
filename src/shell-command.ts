// The package's index.d.ts augments Array.prototype.join globally; quote.js alone does not.
import quote from 'shell-quote/quote.js';

/**
 * A command line to paste into a POSIX shell: each word of `argv` quoted only when it needs it
 * (`node agent.mjs 'What is the weather in Paris?'`), so a suggested command runs as the
 * argv it was built from. Words are written as given; `calltape`, flags and plain names pass
 * through unchanged.
 */
export function shellCommand(argv: readonly string[]): string {
  return quote(argv);
}
