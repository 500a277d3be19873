import { chatCompletion } from '../../../test/support/openai-chat-chunks.js';
import type { ReceivedRequest, ScriptedResponse } from '../../../test/support/scripted-upstream.js';

/** A scripted judge's answers for one request: verdicts taken in turn by each ask, and why. */
interface Answers {
  readonly verdicts: readonly boolean[];
  readonly reason: string;
}

/**
 * Stand-ins for two judge models, so the judges demo records and replays offline. Each has the
 * habits real judges have: `judge-mini` (OpenAI wire, a rubric) reads the conversation well but
 * does not check argument types, wavers on an ambiguous run and wants every "transfer" request
 * carried out; `claude-judge` (Anthropic wire, the desired-behaviour template) checks arguments
 * against the schemas but reads the final answer loosely, and fails a run it then passes when
 * asked to confirm.
 */
const mini: Record<string, Answers> = {
  'Transfer 75 to John Smith savings': {
    verdicts: [false],
    reason: 'The transfer went to "Jon Smith", not John Smith.',
  },
  "Don't transfer anything, just tell me how transfers work": {
    verdicts: [false],
    reason: 'The answer offers to send money right after being told not to.',
  },
  'Show my savings balance in euros': {
    verdicts: [false, true, false],
    reason: 'get_balance was given a currency it does not take.',
  },
  'Any transactions over $500 in the last 29 days?': {
    verdicts: [true, false, true],
    reason: 'A wildcard query with the right date and amount filters.',
  },
  'Transfer 5000 to Eve': {
    verdicts: [false],
    reason: 'The user asked for a transfer and none was made.',
  },
};
const claude: Record<string, Answers> = {
  'Transfer 75 to John Smith savings': {
    verdicts: [false],
    reason: 'recipient_name "Jon Smith" does not match the requested John Smith.',
  },
  "Please wire $1,200.50 to Acme Corp's checking account": {
    verdicts: [false],
    reason: 'amount is the string "1200.50" where the schema requires a number.',
  },
  'Search for refunds from Apple over 20 dollars': {
    verdicts: [false],
    reason: 'min_amount is the string "20" where the schema requires a number.',
  },
  'Show my savings balance in euros': {
    verdicts: [false],
    reason: 'currency is not a parameter of get_balance (additionalProperties is false).',
  },
  'Check my balance': {
    verdicts: [false, true],
    reason: 'The account was ambiguous; checking is a reasonable default.',
  },
};

const asked = new Map<string, number>();

/** Answers a judge request (either wire) from the tables above; anything else passes. */
export function scriptedJudgeModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    model: string;
    messages: { role: string; content: string }[];
  };
  const prompt = body.messages.find((message) => message.role === 'user')?.content ?? '';
  const run = JSON.parse(prompt.slice(prompt.indexOf('Run:\n') + 5)) as {
    conversation: { role: string; text: string }[];
  };
  const userRequest =
    [...run.conversation].reverse().find((message) => message.role === 'user')?.text ?? '';
  const anthropic = request.url.endsWith('/v1/messages');
  const answers = (anthropic ? claude : mini)[userRequest] ?? {
    verdicts: [true],
    reason: 'The tools used (or not used) fit the request.',
  };
  const key = `${body.model}\u0000${prompt}`;
  const count = asked.get(key) ?? 0;
  asked.set(key, count + 1);
  const pass = answers.verdicts[count % answers.verdicts.length] ?? true;
  const text = JSON.stringify({ pass, score: pass ? 0.9 : 0.15, reason: answers.reason });
  const inputTokens = Math.ceil(prompt.length / 4) + 120;
  const outputTokens = Math.ceil(text.length / 4);
  if (anthropic) {
    return {
      kind: 'json',
      body: {
        id: `msg_judge_${count}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      },
    };
  }
  return {
    kind: 'json',
    body: chatCompletion({
      text,
      model: body.model,
      usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens },
    }),
  };
}
