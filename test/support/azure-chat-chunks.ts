import type { JsonValue } from '../../src/trace/trace.js';
import { chatCompletion, chatCompletionChunks, type ScriptedTurn } from './openai-chat-chunks.js';
import type { Random } from './random.js';

/**
 * Azure OpenAI's content filter verdicts, in the shape its Chat Completions answers carry them.
 * The shape (a first stream chunk with `choices: []`, empty `id`/`model`/`object` and
 * `prompt_filter_results`; `content_filter_results` on every choice, `{}` on the role chunk) is
 * read from a real recorded Azure stream: dto-btn/ssc-assistant,
 * app/frontend/src/screens/FrontendChatTestScreen/agents/utils/mergeOpenAiDelta/testHelpers/simple_chat.ts
 * at commit 2b492bbadd9cf7980869271a0831898058832e8d (facts only; nothing copied).
 */
const safe = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};

const promptFilterResults = [{ prompt_index: 0, content_filter_results: safe }];

/** A Chat Completions chunk or answer with each choice carrying `content_filter_results` (empty on the first). */
function withChoiceFilters(value: JsonValue, first: boolean): JsonValue {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const choices = value['choices'];
  if (!Array.isArray(choices)) return value;
  return {
    ...value,
    choices: choices.map((choice) =>
      choice !== null && typeof choice === 'object' && !Array.isArray(choice)
        ? { ...choice, content_filter_results: first ? {} : safe }
        : choice,
    ),
  };
}

/** The chunks Azure OpenAI streams for a turn: the prompt filter chunk first, then OpenAI's with filter results. */
export function azureChatCompletionChunks(
  turn: ScriptedTurn,
  random: Random,
): (JsonValue | '[DONE]')[] {
  const chunks = chatCompletionChunks(turn, random);
  return [
    {
      choices: [],
      created: 0,
      id: '',
      model: '',
      object: '',
      prompt_filter_results: promptFilterResults,
    },
    ...chunks.map((chunk, index) =>
      chunk === '[DONE]' ? chunk : withChoiceFilters(chunk, index === 0),
    ),
  ];
}

/** The whole answer Azure OpenAI gives for a turn: OpenAI's with prompt and choice filter results. */
export function azureChatCompletion(turn: ScriptedTurn): JsonValue {
  const answer = withChoiceFilters(chatCompletion(turn), false);
  return answer !== null && typeof answer === 'object' && !Array.isArray(answer)
    ? { ...answer, prompt_filter_results: promptFilterResults }
    : answer;
}
