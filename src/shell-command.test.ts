import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellCommand } from './shell-command.js';

/** What a POSIX shell (`sh`, the real parser) makes of `line` as the arguments of printf. */
function parsedBySh(line: string): string[] {
  const result = spawnSync('sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\0').slice(0, -1);
}

// The characters a shell treats specially, beside ordinary and non-ASCII ones (argv never holds NUL).
const word = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...' \t\n\'"\\$`!#&|;<>()[]{}*?~=%^,:@-'.split('')),
    fc.constantFrom('a', 'Z', '7', '.', '/', 'é', '€', '😀'),
  ),
  maxLength: 12,
});

describe('suggested commands lose their quoting (shellCommand)', () => {
  it('quotes a prompt with spaces and a command given to sh -c, so they paste back as typed', () => {
    expect(shellCommand(['node', 'agent.mjs', 'What is the weather in Paris?'])).toBe(
      "node agent.mjs 'What is the weather in Paris?'",
    );
    expect(
      shellCommand(['sh', '-c', 'STREAM=1 node agent.mjs "What is the weather in Paris?"']),
    ).toBe(`sh -c 'STREAM=1 node agent.mjs "What is the weather in Paris?"'`);
    expect(shellCommand(['calltape', 'record', '--cassette', 'checkout'])).toBe(
      'calltape record --cassette checkout',
    );
  });

  it('a POSIX shell parses the quoted line back into the original argv', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (argv) => {
        expect(parsedBySh(shellCommand(argv))).toEqual(argv);
      }),
      { numRuns: 150 },
    );
  });
});
