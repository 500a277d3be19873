/**
 * A stand-in generator model for the generate demo (record-generate-demo.ts): answers
 * `calltape generate`'s topic-tree and cases requests for search_transactions in real Chat
 * Completions JSON, with hand-written prompts per subtopic, one of them paraphrased twice so the
 * demo shows deduplication.
 */
import type { ScriptedResponse, ReceivedRequest } from '../../../test/support/scripted-upstream.js';
import { chatCompletion } from '../../../test/support/openai-chat-chunks.js';
import type { JsonValue } from '../../../src/trace/trace.js';

const tree = [
  { topic: 'refunds', subtopics: ['refunds from online shops', 'refunds for cancelled travel'] },
  { topic: 'subscriptions', subtopics: ['streaming services', 'gym and memberships'] },
  { topic: 'merchant payments', subtopics: ['coffee and restaurants', 'utility bills'] },
];

/** Per subtopic: positive prompts (with the arguments they determine), then negative ones. */
const prompts: {
  readonly [subtopic: string]: {
    readonly positive: readonly [string, JsonValue][];
    readonly negative: readonly string[];
  };
} = {
  'refunds from online shops': {
    positive: [['Did the refund from Zalando ever reach my account?', { query: 'Zalando refund' }]],
    negative: ['How long do online shops usually take to refund a purchase?'],
  },
  'refunds for cancelled travel': {
    positive: [
      ['Has the airline refunded my cancelled flight to Lisbon yet?', { query: 'airline refund' }],
    ],
    negative: ['What are my rights when an airline cancels my flight?'],
  },
  'streaming services': {
    positive: [
      ['How much have I paid Netflix since January?', { query: 'Netflix', since: '2026-01-01' }],
    ],
    negative: ['Hi! Just wanted to say the new app looks great.'],
  },
  'gym and memberships': {
    positive: [
      [
        'Show me every gym membership payment over 40 dollars',
        { query: 'gym membership', min_amount: 40 },
      ],
    ],
    negative: ['How much money is in my savings account right now?'],
  },
  'coffee and restaurants': {
    positive: [
      ['What did I spend at Blue Bottle Coffee last month?', { query: 'Blue Bottle Coffee' }],
    ],
    negative: [],
  },
  'utility bills': {
    positive: [
      ['Did my electricity bill payment go through this week?', { query: 'electricity bill' }],
    ],
    negative: [],
  },
};

export function scriptedGeneratorModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as { model: string; messages: { content: string }[] };
  const content = body.messages.at(-1)?.content ?? '';
  if (/List \d+ distinct topics/.test(content)) return answer(body.model, { topics: tree });
  const counts = /Write (\d+) user messages .* and (\d+) for which/.exec(content);
  const subtopic = (/Topic: .* › (.*)/.exec(content)?.[1] ?? '').trim();
  const table = prompts[subtopic] ?? { positive: [], negative: [] };
  const should = /should call it for:\n- (.*)/.exec(content)?.[1] ?? '';
  const cases: JsonValue[] = [
    ...table.positive
      .slice(0, Number(counts?.[1] ?? 0))
      .map(([prompt, args]) => ({ prompt, kind: 'positive', guideline: should, arguments: args })),
    ...table.negative
      .slice(0, Number(counts?.[2] ?? 0))
      .map((prompt) => ({ prompt, kind: 'negative', guideline: guidelineOf(prompt) })),
  ];
  // Generators repeat themselves; deduplication keeps the first of these.
  if (subtopic === 'streaming services')
    cases.push({
      prompt: 'how much have I paid netflix since january',
      kind: 'positive',
      guideline: should,
      arguments: { query: 'Netflix' },
    });
  return {
    kind: 'json',
    body: chatCompletion({
      model: body.model,
      text: JSON.stringify({ cases }),
      usage: { prompt_tokens: 310, completion_tokens: 95 },
    }),
  };
}

function guidelineOf(prompt: string): string {
  if (/savings account/.test(prompt)) return 'questions about balances';
  if (/^Hi!/.test(prompt)) return 'greetings and small talk';
  return 'questions answered from general knowledge';
}

function answer(model: string, value: JsonValue): ScriptedResponse {
  return {
    kind: 'json',
    body: chatCompletion({
      model,
      text: JSON.stringify(value),
      usage: { prompt_tokens: 240, completion_tokens: 120 },
    }),
  };
}
