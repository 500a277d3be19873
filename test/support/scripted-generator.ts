import type { JsonValue } from '../../src/trace/trace.js';
import fnv1a from '@sindresorhus/fnv1a';
import { anthropicMessage } from './anthropic-messages-events.js';
import { chatCompletion } from './openai-chat-chunks.js';
import { seededRandom } from './random.js';
import type { ReceivedRequest, ScriptedResponse } from './scripted-upstream.js';

/**
 * A generator model for `calltape generate` tests: answers a topic-tree request with `breadth`
 * topics of two subtopics, and a cases request with the prompts asked for, plus one paraphrase
 * of the first (case, punctuation and spacing changed) that deduplication must drop. Real Chat
 * Completions JSON, or a Messages response on /v1/messages; deterministic in the request.
 */
export function scriptedGenerator(request: ReceivedRequest): ScriptedResponse {
  const body = JSON.parse(request.body) as { model: string; messages: { content: string }[] };
  const content = body.messages.at(-1)?.content ?? '';
  const tool = /The tool "([^"]+)"/.exec(content)?.[1] ?? 'tool';
  const topics = /List (\d+) distinct topics/.exec(content);
  if (topics) {
    const breadth = Number(topics[1]);
    const tree = Array.from({ length: breadth }, (_, index) => ({
      topic: `${tool} topic ${index + 1}`,
      subtopics: [`detail ${index + 1}a`, `detail ${index + 1}b`],
    }));
    return answer(request, body.model, { topics: tree });
  }
  const counts = /Write (\d+) user messages .* and (\d+) for which/.exec(content);
  const topic = /Topic: (.*)/.exec(content)?.[1] ?? '';
  const should = /should call it for:\n- (.*)/.exec(content)?.[1] ?? '';
  const shouldNot = /should NOT call it for:\n- (.*)/.exec(content)?.[1] ?? '';
  const cases: JsonValue[] = [];
  for (let index = 0; index < Number(counts?.[1] ?? 0); index += 1)
    cases.push({
      prompt: `Please ${words(`${topic}+${index}`)}?`,
      kind: 'positive',
      guideline: should,
      arguments: { query: `${topic} ${index + 1}` },
    });
  for (let index = 0; index < Number(counts?.[2] ?? 0); index += 1)
    cases.push({
      prompt: `Tell me ${words(`${topic}-${index}`)}.`,
      kind: 'negative',
      guideline: shouldNot,
    });
  const first = cases[0] as { prompt?: string } | undefined;
  if (first?.prompt)
    cases.push({
      prompt: `  ${first.prompt.toUpperCase()}?!`,
      kind: 'positive',
      guideline: should,
    });
  return answer(request, body.model, { cases });
}

/** Six made-up words seeded by `seed`: unrelated seeds give prompts far apart, so only the injected paraphrase is a near-duplicate. */
function words(seed: string): string {
  const random = seededRandom(Number(fnv1a(seed) & 0xffffffffn));
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: 6 }, () =>
    Array.from({ length: 4 + random.int(5) }, () => letters[random.int(26)] ?? 'a').join(''),
  ).join(' ');
}

function answer(request: ReceivedRequest, model: string, value: JsonValue): ScriptedResponse {
  if (request.url.startsWith('/v1/messages'))
    return {
      kind: 'json',
      body: anthropicMessage({
        model,
        text: JSON.stringify(value),
        usage: { input_tokens: 120, output_tokens: 80 },
      }),
    };
  return {
    kind: 'json',
    body: chatCompletion({
      model,
      text: JSON.stringify(value),
      usage: { prompt_tokens: 120, completion_tokens: 80 },
    }),
  };
}
