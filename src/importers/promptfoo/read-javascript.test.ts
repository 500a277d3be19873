import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJavascript } from './read-javascript.js';
import { readTransform } from './read-transform.js';

describe('readJavascript', () => {
  it("promptfoo's own tool-call checks read only the output", () => {
    for (const code of [
      "output[0].function.name === 'get_current_weather'",
      "JSON.parse(output[0].function.arguments).location === 'Boston, MA'",
      "const calls = output.functionCalls || [];\nreturn calls.some(c => c.name === 'set_volume' && c.arguments?.level === 50);",
      'const { tool_calls: [first] = [] } = output;\nreturn first !== undefined;',
    ])
      expect(readJavascript(code)).toMatchObject({ kind: 'output-only' });
  });

  it('names what else a check reads: context, metadata, require, process', () => {
    expect(readJavascript('context.vars.city === output')).toEqual({
      kind: 'reads-more',
      names: ['context'],
    });
    expect(readJavascript("metadata.agent === 'Billing'")).toEqual({
      kind: 'reads-more',
      names: ['metadata'],
    });
    expect(readJavascript("require('fs')")).toEqual({ kind: 'reads-more', names: ['require'] });
    expect(readJavascript('const x = process.env;\nreturn x;')).toEqual({
      kind: 'reads-more',
      names: ['process'],
    });
    // A default value in a pattern is read, not declared.
    expect(readJavascript('const { a = secret } = output;\nreturn a;')).toEqual({
      kind: 'reads-more',
      names: ['secret'],
    });
  });

  it('code that closes the function promptfoo puts it in is refused', () => {
    expect(readJavascript('return 1;\n}); steal(); (function () {')).toMatchObject({
      kind: 'unparsable',
    });
    expect(readJavascript('output ===')).toMatchObject({ kind: 'unparsable' });
  });

  it('any free name other than output and plain built-ins is reported (property)', () => {
    const name = fc
      .stringMatching(/^[a-z][a-zA-Z]{2,8}$/)
      .filter(
        (n) =>
          ![
            'output',
            'return',
            'typeof',
            'instanceof',
            'void',
            'delete',
            'new',
            'null',
            'true',
            'false',
            'this',
            'var',
            'let',
            'const',
            'function',
            'class',
            'if',
            'else',
            'for',
            'while',
            'do',
            'in',
            'of',
            'try',
            'catch',
            'finally',
            'throw',
            'switch',
            'case',
            'default',
            'break',
            'continue',
            'with',
            'yield',
            'await',
            'async',
            'static',
            'enum',
            'export',
            'import',
            'super',
            'debugger',
            'extends',
            'implements',
            'interface',
            'package',
            'private',
            'protected',
            'public',
            'arguments',
            'eval',
            'context',
          ].includes(n),
      );
    fc.assert(
      fc.property(name, (free) => {
        expect(readJavascript(`output.length > 0 && ${free}.length > 0`)).toEqual({
          kind: 'reads-more',
          names: [free],
        });
        expect(readJavascript(`output.${free} === 1`)).toMatchObject({ kind: 'output-only' });
      }),
    );
  });
});

describe('readTransform', () => {
  it("reads the transforms of promptfoo's openai-tools-call example", () => {
    expect(readTransform('output[0].function.name')).toEqual({ kind: 'name' });
    expect(readTransform('JSON.parse(output[0].function.arguments).location')).toEqual({
      kind: 'argument',
      key: 'location',
    });
    expect(readTransform("JSON.parse(output[0].function.arguments)['new seat']")).toEqual({
      kind: 'argument',
      key: 'new seat',
    });
    expect(readTransform('JSON.parse(output[0].function.arguments)')).toEqual({
      kind: 'arguments',
    });
    expect(readTransform('output[1].function.name')).toEqual({ kind: 'other' });
    expect(readTransform('output.toUpperCase()')).toEqual({ kind: 'other' });
  });
});
