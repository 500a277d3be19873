import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../../test/support/test-proxy.js';
import { afterwards } from './converse-with-agent.js';
import { runConversation, scriptedTurns } from './run-conversation.js';
import {
  startProcessConversation,
  type ProcessConversationOptions,
} from './process-conversation-agent.js';

/**
 * A process agent whose `onTurn(message, start)` is `body`: it reads calltape's lines from stdin
 * and `say(object)` writes one JSON line to stdout.
 */
function agent(body: string, options: Partial<ProcessConversationOptions> = {}) {
  const folder = temporaryFolder();
  const script = join(folder, 'agent.mjs');
  writeFileSync(
    script,
    `import { createInterface } from 'node:readline';
const say = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
let start;
const onTurn = async (message, start) => { ${body} };
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.type === 'start') start = message;
  else await onTurn(message, start);
}
`,
  );
  return {
    folder,
    conversation: startProcessConversation({
      command: `node ${script}`,
      cwd: folder,
      env: { ...process.env, AGENT_FOLDER: folder },
      start: {
        case: 'refund',
        session: 'refund#2',
        base_urls: { openai: 'http://127.0.0.1:9/v1' },
      },
      turnTimeoutMs: 20_000,
      timeoutMs: 25_000,
      ...options,
    }),
  };
}

describe('startProcessConversation: the process protocol', () => {
  it('writes a start line and each user turn, answers each turn with its reply line, and keeps log lines for the report', async () => {
    const { conversation } = agent(`
      console.log('thinking about turn ' + message.turn);
      say({ type: 'reply', turn: message.turn, text: start.case + '/' + start.session + '/' + start.protocol + ': ' + message.text.toUpperCase() });
    `);
    expect(await conversation.say({ index: 1, text: 'refund my order' })).toEqual({
      text: 'refund/refund#2/1: REFUND MY ORDER',
    });
    expect(await conversation.say({ index: 2, text: 'it is A-17\nthanks' })).toEqual({
      text: 'refund/refund#2/1: IT IS A-17\nTHANKS',
    });
    await conversation.close();
    expect(conversation.run()).toMatchObject({
      exit_code: 0,
      timed_out: false,
      stdout: 'thinking about turn 1\nthinking about turn 2\n',
    });
    expect(afterwards(conversation.run())).toEqual([]);
  });

  it('ends the conversation on an end line, and every later turn is told it ended', async () => {
    const { conversation } = agent(`say({ type: 'end', reason: 'I only do refunds' });`);
    const ended = { text: null, ended: true, reason: 'I only do refunds' };
    expect(await conversation.say({ index: 1, text: 'book a flight' })).toEqual(ended);
    expect(await conversation.say({ index: 2, text: 'please' })).toEqual(ended);
    await conversation.close();
  });

  it("ends a scripted conversation where the agent gives up, with the agent's reason", async () => {
    const { conversation } = agent(
      `say(message.turn === 1 ? { type: 'reply', turn: 1, text: 'Which order?' } : { type: 'end', turn: 2, reason: 'no such order' });`,
    );
    const run = await runConversation(
      conversation,
      scriptedTurns([{ user: 'refund' }, { user: 'Z-99' }, { user: 'hello?' }]),
    );
    expect(run.exchanges.map((exchange) => exchange.reply.text)).toEqual(['Which order?', null]);
    expect(run).toMatchObject({
      ended_by: 'agent_ended',
      ended_reason: 'the agent ended turn 2: no such order',
    });
    expect(conversation.run().exit_code).toBe(0);
  });

  it('gives a per-turn error when the agent exits before replying, with the line of stderr that says why', async () => {
    const { conversation } = agent(`
      if (message.turn === 2) { console.error('TypeError: order is undefined'); process.exit(3); }
      say({ type: 'reply', turn: message.turn, text: 'ok' });
    `);
    expect(await conversation.say({ index: 1, text: 'hi' })).toEqual({ text: 'ok' });
    expect(await conversation.say({ index: 2, text: 'A-17' })).toEqual({
      text: null,
      error: 'the agent exited with code 3 before answering: TypeError: order is undefined',
    });
    expect((await conversation.say({ index: 3, text: 'hello?' })).error).toMatch(
      /^the agent exited with code 3/,
    );
    await conversation.close();
    expect(conversation.run()).toMatchObject({ exit_code: 3 });
  });

  it('gives a per-turn error for a malformed reply line, naming the turn and the field', async () => {
    const { conversation } = agent(`say({ type: 'reply', turn: message.turn, text: 42 });`);
    expect(await conversation.say({ index: 1, text: 'hi' })).toEqual({
      text: null,
      error: 'the agent wrote a malformed protocol line: text: expected a string or null, got 42',
    });
    await conversation.close();
  });

  it('gives a per-turn error for a reply to another turn', async () => {
    const { conversation } = agent(
      `say({ type: 'reply', turn: message.turn + 1, text: 'early' });`,
    );
    expect(await conversation.say({ index: 1, text: 'hi' })).toEqual({
      text: null,
      error: 'the agent answered turn 2 while turn 1 was asked',
    });
    await conversation.close();
  });

  it('gives a per-turn error for a line over 1 MiB, and holds none of it', async () => {
    const { conversation } = agent(
      `say({ type: 'reply', turn: message.turn, text: 'x'.repeat(3 * 1024 * 1024) });`,
    );
    const reply = await conversation.say({ index: 1, text: 'hi' });
    expect(reply.error).toMatch(/^the agent wrote a line over 1048576 bytes on stdout/);
    await conversation.close();
    expect(conversation.run().stdout).toBe('');
  });

  it('gives a per-turn error for a silent agent, instead of a hang, and kills everything it started', async () => {
    const { conversation, folder } = agent(
      `
      const { spawn } = await import('node:child_process');
      const { writeFileSync } = await import('node:fs');
      // It holds the agent's stdout, so the conversation closes only once it is gone too.
      const child = spawn('sleep', ['600'], { stdio: ['ignore', 'inherit', 'inherit'] });
      writeFileSync(process.env.AGENT_FOLDER + '/child.pid', String(child.pid));
      await new Promise(() => {});
    `,
      { turnTimeoutMs: 1_000 },
    );
    const reply = await conversation.say({ index: 1, text: 'hi' });
    expect(reply.error).toMatch(
      /^the agent did not answer within 1000 ms \(an answer is one JSON line on stdout/,
    );
    await conversation.close();
    expect(conversation.run()).toMatchObject({ timed_out: true, signal: 'SIGKILL' });
    const child = Number(readFileSync(join(folder, 'child.pid'), 'utf8'));
    expect(alive(child)).toBe(false);
  });

  it('kills an agent that does not exit when its stdin closes, and says so', async () => {
    const { conversation } = agent(
      `say({ type: 'reply', turn: message.turn, text: 'ok' }); process.stdin.pause(); setInterval(() => {}, 1000);`,
      { exitGraceMs: 200 },
    );
    expect(await conversation.say({ index: 1, text: 'hi' })).toEqual({ text: 'ok' });
    await conversation.close();
    expect(afterwards(conversation.run())).toEqual([
      'the agent did not exit when its stdin closed after the conversation (ended by SIGKILL)',
    ]);
  });
});

/** Whether a process lives (a zombie, dead but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
