import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminal-safe.js';

/** What a terminal would act on in printed text (tab and line feed are layout). */
const acted =
  // eslint-disable-next-line no-control-regex -- the test's own statement of what may not pass
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('shows the escape sequences that cleared the screen, set the clipboard and painted a fake PASS (issue #30)', () => {
    const hostile =
      '\u001b[2J\u001b[H\u001b]52;c;ZXZpbA==\u0007done\r\u001b[32mPASS\u001b[0m\u009b2J\u202eevil';
    expect(terminalSafe(hostile)).toBe(
      '\\u001b[2J\\u001b[H\\u001b]52;c;ZXZpbA==\\u0007done\\u000d\\u001b[32mPASS\\u001b[0m\\u009b2J\\u202eevil',
    );
  });

  it('keeps line feeds, tabs and every printable character', () => {
    expect(terminalSafe('a\tb\nc — ü ✓ 表')).toBe('a\tb\nc — ü ✓ 表');
  });

  it('leaves nothing a terminal acts on, and changes text that had none not at all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const safe = terminalSafe(text);
        expect(acted.test(safe)).toBe(false);
        if (!acted.test(text)) expect(safe).toBe(text);
      }),
    );
  });
});
