import type { CaseResult } from '../../scoring/case-result.js';
import { boundedOutput, spawnAgentProcess } from '../agent-process.js';
import type { AgentReply, ConversationAgent } from './conversation-agent.js';
import {
  encodeLine,
  maxAgentMessage,
  startLine,
  type ConversationStart,
} from './conversation-protocol.js';
import { LineSplitter } from '../../mcp/line-splitter.js';
import { agentReply, readAgentLine, type AgentAnswer } from './read-agent-line.js';
import { lastLine } from '../agent-failure.js';

/** What the report keeps of an agent process: how it ended and what it printed. */
export type AgentRun = NonNullable<CaseResult['agent']>;

/** A conversation with a process agent; `run()` tells how the process ended, once closed. */
export interface ProcessConversation extends ConversationAgent {
  /** How the process ended and what it printed besides protocol lines (complete after `close()`). */
  run(): AgentRun;
}

export interface ProcessConversationOptions {
  readonly command: string;
  readonly cwd: string;
  /** Its whole environment (base URLs, key, case id included). */
  readonly env: NodeJS.ProcessEnv;
  readonly start: ConversationStart;
  /** The most one turn may take to be answered. */
  readonly turnTimeoutMs: number;
  /** The most the whole conversation may take, from the start. */
  readonly timeoutMs: number;
  /** How long the agent has to exit once its stdin is closed, before its process group is killed; default 5 s. */
  readonly exitGraceMs?: number;
}

interface Waiting {
  readonly turn: number;
  readonly settle: (reply: AgentReply) => void;
}

/**
 * The process protocol (docs/reference/conversation-protocol.md): starts the agent once for the
 * conversation, writes a start line, then each user turn as a JSON line on its stdin, and
 * resolves each turn with the reply (or end) line it writes to stdout. Other stdout lines are
 * kept for the report. A turn is an error — never a hang — when the agent exits before replying,
 * writes a malformed or oversize line, replies to another turn, or passes the turn's or the
 * conversation's timeout (then its whole process group is killed).
 */
export function startProcessConversation(options: ProcessConversationOptions): ProcessConversation {
  const agent = spawnAgentProcess(options.command, { cwd: options.cwd, env: options.env });
  const stdout = boundedOutput();
  const stderr = boundedOutput();
  let waiting: Waiting | undefined;
  /** Why the conversation cannot go on, told to the next turn when no turn was waiting. */
  let broken: string | undefined;
  let ended: AgentAnswer | undefined;
  let exited: readonly [number | null, NodeJS.Signals | null] | undefined;
  let timedOut = false;
  let closing: Promise<void> | undefined;

  const settle = (reply: AgentReply): void => {
    const current = waiting;
    waiting = undefined;
    clearTimeout(turnTimer);
    current?.settle(reply);
  };
  const fail = (message: string): void => {
    broken ??= message;
    if (waiting) settle({ text: null, error: message });
  };
  const stop = (message: string): void => {
    timedOut = true;
    agent.kill();
    fail(message);
  };
  let turnTimer: NodeJS.Timeout | undefined;
  const conversationTimer = setTimeout(
    () => stop(`the conversation did not finish within ${options.timeoutMs} ms`),
    options.timeoutMs,
  );

  const onLine = (line: string): void => {
    const read = readAgentLine(line);
    if (read.kind === 'output') return stdout.append(`${line}\n`);
    const turn = waiting?.turn;
    if (read.kind === 'malformed')
      return fail(`the agent wrote a malformed protocol line: ${read.problem}`);
    if (read.turn !== null && read.turn !== turn)
      return fail(
        turn === undefined
          ? `the agent answered turn ${read.turn} when no turn was waiting for an answer`
          : `the agent answered turn ${read.turn} while turn ${turn} was asked`,
      );
    if (read.answer.end) ended = read.answer;
    settle(agentReply(read.answer));
  };
  // Bounded: a line past maxAgentMessage bytes is dropped as it arrives, and the turn fails.
  const splitter = new LineSplitter(maxAgentMessage);
  agent.child.stdout.on('data', (chunk: Buffer) => {
    for (const piece of splitter.push(chunk)) {
      if (piece.complete) onLine(piece.bytes.toString('utf8').replace(/\r?\n$/, ''));
      else
        fail(
          `the agent wrote a line over ${maxAgentMessage} bytes on stdout; a protocol line is one JSON object on one line`,
        );
    }
  });
  agent.child.stdout.on('end', () => {
    const last = splitter.end();
    if (last) onLine(last.toString('utf8'));
  });
  agent.child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
  void agent.closed.then((status) => {
    exited = status;
    clearTimeout(conversationTimer);
    const before = waiting ? ' before answering' : '';
    if (!timedOut) fail(`the agent ${exitText(status)}${before}${stderrLine()}`);
  });
  agent.child.stdin.write(encodeLine(startLine(options.start)));

  const stderrLine = (): string => {
    const line = lastLine(stderr.text());
    return line ? `: ${line}` : '';
  };

  return {
    say(turn) {
      if (closing) return Promise.resolve({ text: null, error: 'the conversation was closed' });
      if (broken !== undefined) return Promise.resolve({ text: null, error: broken });
      if (ended !== undefined) return Promise.resolve({ ...agentReply(ended), text: null });
      if (waiting) throw new Error(`turn ${turn.index} was said while turn ${waiting.turn} waits`);
      return new Promise<AgentReply>((resolve) => {
        waiting = { turn: turn.index, settle: resolve };
        turnTimer = setTimeout(
          () =>
            stop(
              `the agent did not answer within ${options.turnTimeoutMs} ms (an answer is one JSON line on stdout: {"type":"reply","turn":${turn.index},"text":"…"})`,
            ),
          options.turnTimeoutMs,
        );
        agent.child.stdin.write(encodeLine({ type: 'user', turn: turn.index, text: turn.text }));
      });
    },
    close() {
      closing ??= (async () => {
        clearTimeout(turnTimer);
        clearTimeout(conversationTimer);
        settle({ text: null, error: 'the conversation was closed' });
        agent.child.stdin.end();
        if (exited === undefined) {
          // End of stdin is the agent's cue to exit; one that does not is killed.
          const grace = setTimeout(() => agent.kill(), options.exitGraceMs ?? 5_000);
          await agent.closed;
          clearTimeout(grace);
        }
      })();
      return closing;
    },
    run: () => ({
      exit_code: exited?.[0] ?? null,
      signal: exited?.[1] ?? null,
      timed_out: timedOut,
      stdout: stdout.text(),
      stderr: stderr.text(),
    }),
  };
}

function exitText([code, signal]: readonly [number | null, NodeJS.Signals | null]): string {
  return code !== null ? `exited with code ${code}` : `was ended by ${signal ?? 'a signal'}`;
}
