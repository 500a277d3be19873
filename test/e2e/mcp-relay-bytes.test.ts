import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.js';
import { temporaryFolder } from '../support/test-proxy.js';

/** Runs `calltape mcp <args>` with `input` on stdin; resolves with its exit code and output. */
function runRelay(
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = spawn(process.execPath, [cliPath, 'mcp', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => stdout.push(data));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr })),
  );
}

// A server that says every line back: what comes out must be exactly what went in.
const echoServer = [
  process.execPath,
  '-e',
  "process.stderr.write('echo: up\\n'); process.stdin.pipe(process.stdout); process.stdin.on('end', () => setImmediate(() => process.exit(7)))",
];

describe('calltape mcp relay on the wire', () => {
  it('relays every message byte for byte and in order, forwards stderr and exits with the server code', async () => {
    const input = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
      '{ "jsonrpc" : "2.0", "method":"notifications/initialized" }\r\n',
      '{"jsonrpc":"2.0","id":"x-2","method":"tools/call","params":{"name":"grüße","arguments":{"text":"✓ \\u2028"},"_meta":{"progressToken":9}}}\n',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":9,"progress":0.5}}\n',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x-2","reason":"user"}}\n',
      'not json at all\n',
      '{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}',
    ].join('');
    const cassette = join(temporaryFolder(), 'echo.sqlite');
    const result = await runRelay(
      ['--name', 'echo', '--cassette', cassette, '--mode', 'record', '--', ...echoServer],
      input,
    );
    expect(result.stdout.toString()).toBe(input);
    expect(result.stderr).toContain('echo: up');
    expect(result.code).toBe(7);
  });

  it('replays with the client ids, string or number, and exits 1 after a miss', async () => {
    const folder = temporaryFolder();
    const mocks = join(folder, 'm.json');
    writeFileSync(
      mocks,
      JSON.stringify({ mcp: { calc: { mocks: [{ tool: 'add', content: 'ok' }] } } }),
    );
    const input = [
      '{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"name":"add","arguments":{}}}',
      '{"jsonrpc":"2.0","id":41,"method":"ping"}',
      '{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"sub","arguments":{}}}',
      '',
    ].join('\n');
    const result = await runRelay(['--name', 'calc', '--mode', 'replay', '--mocks', mocks], input);
    const lines = result.stdout
      .toString()
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { id: unknown; result?: unknown; error?: { code: number } },
      );
    expect(lines.map((line) => line.id)).toEqual(['first', 41, 42]);
    expect(lines[0]?.result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(lines[1]?.result).toEqual({});
    expect(lines[2]?.error?.code).toBe(-32001);
    expect(result.code).toBe(1);
  });
});
