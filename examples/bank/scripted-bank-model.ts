import { chatCompletion, type ScriptedTurn } from '../../test/support/openai-chat-chunks.js';
import type { ReceivedRequest, ScriptedResponse } from '../../test/support/scripted-upstream.js';

/** What the stand-in model does for a request: tool-call turns in order, then its answer. */
interface Plan {
  readonly turns: readonly (readonly (readonly [string, object])[])[];
  readonly answer: string;
}

const transfer = (
  recipient_name: string,
  amount: number | string,
  account_type: string,
  memo?: string,
): [string, object] => [
  'execute_transfer',
  { recipient_name, amount, account_type, ...(memo ? { memo } : {}) },
];

/**
 * The bundled stand-in for a real model, so the example suite records and replays offline. It
 * answers the banking agent's requests the way a capable model would — including two habits a
 * real one has: a string where a number is expected, and an argument the tool does not take.
 */
const plans: Record<string, Plan> = {
  "Transfer $150 to John Doe's savings account with the memo 'rent'": {
    turns: [[transfer('John Doe', 150, 'savings', 'rent')]],
    answer: 'Done: $150 sent to John Doe (savings), memo "rent".',
  },
  'Send 250 dollars to Maria Garcia, checking, memo Rent Payment': {
    turns: [[transfer('Maria Garcia', 250, 'checking', 'rent payment')]],
    answer: 'Sent $250 to Maria Garcia.',
  },
  "Please wire $1,200.50 to Acme Corp's checking account": {
    turns: [[transfer('Acme Corp', '1200.50', 'checking')]],
    answer: 'Wired $1,200.50 to Acme Corp.',
  },
  'Transfer 75 to John Smith savings': {
    turns: [[transfer('Jon Smith', 75, 'savings')]],
    answer: 'Sent $75 to Jon Smith.',
  },
  "Move $40 to Li Wei's checking account for lunch": {
    turns: [[transfer('Li Wei', 40, 'checking', 'Lunch money')]],
    answer: 'Moved $40 to Li Wei.',
  },
  "Pay Bob Lee 19.99 into his savings with memo 'Netflix share'": {
    turns: [[transfer('Bob Lee', 19.99, 'savings', 'netflix share')]],
    answer: 'Paid Bob Lee $19.99.',
  },
  "Transfer $20 to Sam Park's checking and tell me my remaining checking balance": {
    turns: [
      [transfer('Sam Park', 20, 'checking')],
      [['get_balance', { account_type: 'checking' }]],
    ],
    answer: 'Sent $20 to Sam Park; your checking balance is $842.17.',
  },
  "If my checking balance is over $500, transfer $100 to Jane Roe's savings": {
    turns: [
      [['get_balance', { account_type: 'checking' }]],
      [transfer('Jane Roe', 100, 'savings')],
    ],
    answer: 'Your checking balance is $842.17, so I sent $100 to Jane Roe.',
  },
  "What's my savings balance?": {
    turns: [[['get_balance', { account_type: 'savings' }]]],
    answer: 'Your savings balance is $5,120.40.',
  },
  'How much money is in my checking account?': {
    turns: [[['get_balance', { account_type: 'checking' }]]],
    answer: 'You have $842.17 in checking.',
  },
  'Check my balance': {
    turns: [[['get_balance', { account_type: 'checking' }]]],
    answer: 'Your checking balance is $842.17.',
  },
  'Show my savings balance in euros': {
    turns: [[['get_balance', { account_type: 'savings', currency: 'EUR' }]]],
    answer: 'About €4,700.',
  },
  "What's my savings balance and my last Starbucks transaction?": {
    turns: [
      [
        ['search_transactions', { query: 'Starbucks' }],
        ['get_balance', { account_type: 'savings' }],
      ],
    ],
    answer: 'Savings: $5,120.40. Last Starbucks: $54.99 on Nov 2.',
  },
  'Find my transactions at Starbucks': {
    turns: [[['search_transactions', { query: 'Starbucks' }]]],
    answer: 'One Starbucks purchase: $54.99 on Nov 2.',
  },
  'Show payments to Amazon since November 1st 2026': {
    turns: [[['search_transactions', { query: 'Amazon', since: '2026-11-01' }]]],
    answer: 'One Amazon payment since Nov 1.',
  },
  'Any transactions over $500 in the last 29 days?': {
    turns: [[['search_transactions', { query: '*', since: '2026-11-01', min_amount: 500 }]]],
    answer: 'None over $500.',
  },
  'Search for refunds from Apple over 20 dollars': {
    turns: [[['search_transactions', { query: 'Apple refund', min_amount: '20' }]]],
    answer: 'One Apple refund.',
  },
  "What's the difference between checking and savings?": {
    turns: [],
    answer: 'Checking is for everyday spending; savings earns interest.',
  },
  'Hi there!': { turns: [], answer: 'Hello! How can I help with your accounts today?' },
  'Can you explain wire transfer fees?': {
    turns: [],
    answer: 'Domestic wires cost $25; international ones $45.',
  },
  "Don't transfer anything, just tell me how transfers work": {
    turns: [],
    answer: 'Tell me the recipient, the amount and the account, and I send it.',
  },
  'Transfer 5000 to Eve': {
    turns: [],
    answer: 'Which account should the $5,000 go to, checking or savings?',
  },
};

export function scriptedBankModel(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as {
    messages: { role: string; content: string | null; tool_calls?: unknown[] }[];
  };
  const lastUser = body.messages.map((message) => message.role).lastIndexOf('user');
  const prompt = body.messages[lastUser]?.content ?? '';
  const plan = plans[prompt] ?? { turns: [], answer: "I'm not sure how to help with that." };
  const done = body.messages
    .slice(lastUser + 1)
    .filter(
      (message) => message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0,
    ).length;
  const calls = plan.turns[done];
  const turn: ScriptedTurn = calls
    ? {
        toolCalls: calls.map(([name, args], index) => ({
          id: `call_${done}_${index}_${name}`,
          name,
          arguments: JSON.stringify(args),
        })),
      }
    : { text: plan.answer };
  return {
    kind: 'json',
    body: chatCompletion({
      ...turn,
      usage: { prompt_tokens: 180 + body.messages.length * 25, completion_tokens: calls ? 24 : 18 },
    }),
  };
}

export const bankPrompts = Object.keys(plans);
