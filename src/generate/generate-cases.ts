import type { Config, ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import { createLogger } from '../logger.js';
import { askThroughProxy, type ModelEndpoint } from '../ask-through-proxy.js';
import { startProxy } from '../proxy/proxy-server.js';
import type { JsonValue } from '../trace/trace.js';
import { dedupePrompts } from './dedupe-prompts.js';
import { draftCase, type DraftOrigin, type TopicPrompt } from './draft-case.js';
import { GeneratorAnswerError, promptsOf, topicsOf, type TopicNode } from './generator-answers.js';
import {
  casesRequest,
  topicTreeRequest,
  type GeneratorModel,
  type ToolBrief,
} from './generator-requests.js';
import { spreadCounts } from './spread-counts.js';

export interface GenerateOptions {
  readonly config: Config;
  readonly mode: Extract<ProxyMode, 'record' | 'replay' | 'auto'>;
  /** Where the generator's round trips are recorded and replayed from. */
  readonly cassette: string;
  readonly apiKey: string;
  readonly generator: GeneratorModel;
  /** What the agent is for (the guidelines' description). */
  readonly agent: string;
  /** Cases asked for per tool. */
  readonly positive: number;
  readonly negative: number;
  /** Topics in each tool's tree. */
  readonly breadth: number;
  /** Levenshtein ratio from which two normalised prompts count as one (0..1). */
  readonly threshold: number;
  /** Prompts already in the suite: a generated near-duplicate of one is dropped. */
  readonly existingPrompts: readonly string[];
  readonly origin: DraftOrigin;
  /** How to record the cassette from the user's command, for the hint when replay finds none. */
  readonly recordCommand: string;
}

/** What a generation produced. */
export interface Generation {
  /** Draft suite cases, in tool, topic and answer order. */
  readonly cases: readonly { [field: string]: JsonValue }[];
  /** Prompts the generator wrote, before deduplication. */
  readonly written: number;
  /** Near-duplicates dropped (of each other or of the suite's cases). */
  readonly dropped: number;
  /** Each tool's topic tree. */
  readonly topics: ReadonlyMap<string, readonly TopicNode[]>;
}

/**
 * Generates draft cases: per tool, asks the generator model (through a proxy started here on the
 * generation cassette) for a topic tree, then for positive and negative prompts per subtopic,
 * and removes near-duplicates. Requests go one at a time in a fixed order and are pure functions
 * of the inputs, so a replayed generation is byte-identical and needs no network.
 */
export async function generateCases(
  tools: readonly ToolBrief[],
  options: GenerateOptions,
): Promise<Generation> {
  const misses: string[] = [];
  const proxy = await startProxy(
    {
      ...options.config,
      host: '127.0.0.1',
      port: 0,
      mode: options.mode,
      cassette: options.cassette,
    },
    {
      logger: createLogger('error'),
      recordCommand: options.recordCommand,
      observer: {
        interaction: () => undefined,
        miss: (_session, message) => void misses.push(message),
      },
    },
  );
  const endpoint: ModelEndpoint = {
    url: proxy.url,
    apiKey: options.apiKey,
    timeoutMs: options.config.timeouts?.upstreamHeadersMs ?? 120_000,
  };
  const ask = async <T>(
    body: JsonValue,
    session: string,
    read: (text: string) => T,
    what: string,
  ): Promise<T> => {
    let text: string;
    try {
      text = await askThroughProxy(options.generator.provider, body, session, endpoint);
    } catch (error) {
      if (misses.length > 0)
        throw new CalltapeError(
          'CASSETTE_MISS',
          `${options.cassette}: ${misses[0] ?? ''}`,
          `Record the generation first: ${options.recordCommand}`,
        );
      throw new CalltapeError(
        'GENERATOR_FAILED',
        `generator ${options.generator.model}: ${what}: could not answer: ${(error as Error).message}`,
      );
    }
    try {
      return read(text);
    } catch (error) {
      if (!(error instanceof GeneratorAnswerError)) throw error;
      throw new CalltapeError(
        'GENERATOR_FAILED',
        `generator ${options.generator.model}: ${what}: ${error.message}`,
        'Nothing was written. Try again with --mode record (another answer), or another --generator-model.',
      );
    }
  };
  const prompts: TopicPrompt[] = [];
  const topics = new Map<string, readonly TopicNode[]>();
  try {
    for (const tool of tools) {
      const tree = await ask(
        topicTreeRequest(options.generator, tool, options.agent, options.breadth),
        `calltape-generate:${tool.name}:topics`,
        topicsOf,
        `the topic tree of "${tool.name}"`,
      );
      topics.set(tool.name, tree);
      const leaves = tree.flatMap((node) =>
        node.subtopics.length === 0
          ? [node.topic]
          : node.subtopics.map((subtopic) => `${node.topic} › ${subtopic}`),
      );
      const positives = spreadCounts(options.positive, leaves.length);
      const negatives = spreadCounts(options.negative, leaves.length);
      for (const [index, topic] of leaves.entries()) {
        const counts = { positive: positives[index] ?? 0, negative: negatives[index] ?? 0 };
        if (counts.positive + counts.negative === 0) continue;
        const written = await ask(
          casesRequest(options.generator, tool, options.agent, topic, counts),
          `calltape-generate:${tool.name}:${index + 1}`,
          promptsOf,
          `the cases of "${tool.name}" on "${topic}"`,
        );
        prompts.push(...written.map((prompt) => ({ ...prompt, tool: tool.name, topic })));
      }
    }
  } finally {
    await proxy.close();
  }
  const existing = options.existingPrompts.map((prompt): TopicPrompt => ({
    prompt,
    kind: 'positive',
    guideline: '',
    arguments: {},
    tool: '',
    topic: '',
  }));
  const { kept, dropped } = dedupePrompts(
    prompts,
    (item) => item.prompt,
    options.threshold,
    existing,
  );
  const byTool = new Map(tools.map((tool) => [tool.name, tool.guidelines]));
  const cases = kept.map((prompt) =>
    draftCase(
      prompt,
      byTool.get(prompt.tool) ?? { should_use: [], should_not_use: [], topics: [] },
      options.origin,
    ),
  );
  return { cases, written: prompts.length, dropped: dropped.length, topics };
}
