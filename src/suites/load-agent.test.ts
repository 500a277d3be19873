import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loadAgent, type RawAgent } from './load-agent.js';

const where = { file: '/p/suite.yaml', folder: '/p', cwd: '/work' };
const load = (raw: RawAgent) => loadAgent(raw, where);
const refusal = (raw: RawAgent): string => {
  try {
    load(raw);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('loadAgent', () => {
  it('keeps a single-prompt agent command as it was (input arg, the working directory, 120 s)', () => {
    expect(load({ command: 'node agent.js' })).toEqual({
      kind: 'process',
      command: 'node agent.js',
      input: 'arg',
      protocol: 'prompt',
      cwd: '/work',
      timeoutMs: 120_000,
      turnTimeoutMs: 120_000,
      env: {},
    });
  });

  it('reads a conversing command and an agent at a url, a turn never allowed longer than the conversation', () => {
    expect(
      load({ command: 'python3 agent.py', protocol: 'jsonl', cwd: '.', turn_timeout_ms: 5000 }),
    ).toMatchObject({ kind: 'process', protocol: 'jsonl', cwd: '/p', turnTimeoutMs: 5000 });
    expect(
      load({ url: 'http://127.0.0.1:8787/turn', timeout_ms: 1000, turn_timeout_ms: 9000 }),
    ).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:8787/turn',
      timeoutMs: 1000,
      turnTimeoutMs: 1000,
    });
  });

  it('refuses neither or both of command and url, and command fields on a url, naming file and field', () => {
    expect(refusal({})).toMatch(/^\/p\/suite\.yaml: agent\.command: required: .*or url/);
    expect(refusal({ command: 'x', url: 'http://localhost:1/' })).toMatch(/agent\.url: .*not both/);
    expect(refusal({ url: 'http://localhost:1/', protocol: 'jsonl' })).toMatch(
      /agent\.protocol: belongs to an agent command/,
    );
    expect(refusal({ url: 'http://localhost:1/', env: {} })).toMatch(/agent\.env: /);
    expect(refusal({ command: 'x', allow_remote: true })).toMatch(
      /agent\.allow_remote: belongs to an agent at a url/,
    );
    expect(refusal({ command: 'x', protocol: 'jsonl', input: 'stdin' })).toMatch(
      /agent\.input: with protocol jsonl/,
    );
    expect(refusal({ url: 'ftp://127.0.0.1/' })).toMatch(/agent\.url: expected an http/);
    expect(refusal({ url: 'not a url' })).toMatch(/agent\.url: not a URL/);
  });

  it('reads an agent module as its path against the suite folder and its export, default when none is named', () => {
    const folder = mkdtempSync(join(tmpdir(), 'calltape-load-agent-'));
    writeFileSync(join(folder, 'agent.mjs'), 'export default async () => {};');
    const inFolder = { file: join(folder, 'suite.yaml'), folder, cwd: '/work' };
    expect(loadAgent({ module: './agent.mjs#run', timeout_ms: 5000 }, inFolder)).toEqual({
      kind: 'module',
      path: join(folder, 'agent.mjs'),
      exportName: 'run',
      written: './agent.mjs#run',
      timeoutMs: 5000,
      env: {},
    });
    expect(loadAgent({ module: 'agent.mjs' }, inFolder)).toMatchObject({ exportName: 'default' });
    const refused = (raw: RawAgent): string => {
      try {
        loadAgent(raw, inFolder);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ module: './agent.mjs', command: 'node a.js' })).toMatch(
      /suite\.yaml: agent\.module: an agent is one of command, url or module/,
    );
    expect(refused({ module: './agent.mjs', input: 'stdin' })).toMatch(
      /agent\.input: belongs to an agent command or url/,
    );
    expect(refused({ module: './agent.mjs#not-a-name' })).toMatch(
      /agent\.module: expected a module path and an optional export name/,
    );
    expect(refused({ module: './nope.mjs#run' })).toMatch(
      /agent\.module: \.\/nope\.mjs is not a file/,
    );
  });

  it('refuses an agent url off this machine unless allow_remote says so, and never prints its password', () => {
    const message = refusal({ url: 'http://ada:hunter2@agents.example.com/turn' });
    expect(message).toMatch(/agent\.url: .*is not on this machine/);
    expect(message).not.toContain('hunter2');
    expect(load({ url: 'https://agents.example.com/turn', allow_remote: true })).toMatchObject({
      kind: 'http',
    });
    for (const url of [
      'http://localhost:9/',
      'http://127.0.0.2:9/',
      'http://[::1]:9/',
      'http://[::ffff:127.0.0.1]:9/',
    ])
      expect(refusal({ url }), url).toBe('accepted');
    for (const url of [
      'http://10.0.0.1/',
      'http://[::2]/',
      'http://localhost.example.com/',
      'http://0.0.0.0/',
    ])
      expect(refusal({ url }), url).toMatch(/not on this machine/);
  });
});

describe('isLoopbackHost', () => {
  it('takes every 127.0.0.0/8 address, and no other IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(isLoopbackHost(address)).toBe(address.startsWith('127.'));
      }),
    );
  });
});
