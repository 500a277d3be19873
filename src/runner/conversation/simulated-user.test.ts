import { describe, expect, it } from 'vitest';
import type { Exchange } from './run-conversation.js';
import { simulatedUser, simulatedUserSession, userModelRequest } from './simulated-user.js';

const spec = { persona: 'A customer.', goal: 'Get A-17 refunded.' };
const history: Exchange[] = [
  { index: 1, user: 'I want a refund', reply: { text: 'Which order?' }, startedAt: 1 },
];

describe('simulated user', () => {
  it('asks its model from the user side: its own messages as its turns, the agent replies as the other side', () => {
    expect(userModelRequest(spec, 'm', history)).toEqual({
      model: 'm',
      temperature: 0,
      messages: [
        {
          role: 'system',
          content: expect.stringContaining('What you want: Get A-17 refunded.') as unknown,
        },
        { role: 'assistant', content: 'I want a refund' },
        { role: 'user', content: 'Which order?' },
      ],
    });
    // A pure function of what was said: the same history gives the same request (replay finds it).
    expect(JSON.stringify(userModelRequest(spec, 'm', history))).toBe(
      JSON.stringify(userModelRequest(spec, 'm', structuredClone(history))),
    );
  });

  it('says the scripted turns first, then ends on a stop_when pass without asking the model', async () => {
    const source = simulatedUser(spec, [{ user: 'hello' }], {
      session: 'case-1',
      model: 'm',
      endpoint: { url: 'http://127.0.0.1:9', apiKey: 'k', timeoutMs: 1000 },
      judgeGoal: () => Promise.resolve({ pass: true, reason: 'refunded' }),
    });
    expect(await source.nextUserTurn([])).toEqual({ text: 'hello' });
    expect(await source.nextUserTurn(history)).toEqual({
      end: 'goal',
      reason: 'stop_when: refunded',
    });
  });

  it('asks under the sibling session, never the agent one', () => {
    expect(simulatedUserSession('refund#2')).toBe('calltape-user:refund#2');
  });
});
