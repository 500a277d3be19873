import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { ReadNamedFile } from '../import-types.js';
import { extensionOf, includePath, isGlob, parseDocument, readInclude } from './read-include.js';

/** One prompt template: its text (Nunjucks), and whether it renders to a chat message list (JSON). */
export interface PromptfooPrompt {
  readonly where: string;
  readonly template: string;
  readonly chat: boolean;
}

/** The provider a config runs its tests against, as calltape can use it. */
export interface PromptfooProvider {
  readonly where: string;
  readonly id: string;
  /** The model direct mode asks: set for OpenAI chat and responses providers only. */
  readonly model: string | undefined;
  /** OpenAI Chat Completions function tools (converted from Responses or Anthropic shapes). */
  readonly tools: readonly JsonValue[];
  readonly toolChoice: JsonValue | undefined;
}

/** A prompt or provider entry calltape could not use, and why. */
export interface SetupSkip {
  readonly where: string;
  readonly why: string;
}

type Raw = { readonly [key: string]: JsonValue };

/** promptfoo's prompts: inline strings, `{ raw | id, label }` objects, `file://` text, JSON or YAML chat files. */
export function readPrompts(
  value: JsonValue | undefined,
  where: string,
  read: ReadNamedFile | undefined,
  skipped: SetupSkip[],
): PromptfooPrompt[] {
  if (value === undefined || value === null) return [];
  const entries = Array.isArray(value) ? value : [value];
  return entries.flatMap((entry, index): PromptfooPrompt[] => {
    const at = Array.isArray(value) ? `${where}[${index}]` : where;
    const text =
      typeof entry === 'string'
        ? entry
        : entry !== null && typeof entry === 'object' && !Array.isArray(entry)
          ? (entry['raw'] ?? entry['id'])
          : undefined;
    if (typeof text !== 'string')
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${at}: a prompt is a text, a file:// reference or an object with raw or id`,
      );
    const path = includePath(text);
    if (path === undefined) return [{ where: at, template: text, chat: looksLikeChat(text) }];
    if (isGlob(path)) {
      skipped.push({ where: at, why: `file://${path} is a glob; calltape reads named files only` });
      return [];
    }
    const extension = extensionOf(path.split(':')[0] ?? path);
    if (['js', 'cjs', 'mjs', 'ts', 'py'].includes(extension)) {
      skipped.push({
        where: at,
        why: `the prompt is built by code (file://${path}); calltape cannot run it`,
      });
      return [];
    }
    const file = readInclude(path, at, read);
    if (extension === 'json' || extension === 'yaml' || extension === 'yml')
      return [{ where: file.path, template: JSON.stringify(parseDocument(file)), chat: true }];
    // promptfoo splits a text file on lines of three dashes, one prompt each.
    return file.text
      .split(/^---$/m)
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part, position) => ({
        where: `${file.path}: prompt ${position + 1}`,
        template: part,
        chat: false,
      }));
  });
}

function looksLikeChat(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return false;
  try {
    return Array.isArray(JSON.parse(trimmed));
  } catch {
    return false;
  }
}

/** The first provider (calltape runs one model per suite); the others are reported. */
export function readProviders(
  value: JsonValue | undefined,
  where: string,
  read: ReadNamedFile | undefined,
  skipped: SetupSkip[],
): PromptfooProvider | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value === 'string' &&
    includePath(value) !== undefined &&
    /\.(ya?ml|json)$/i.test(value)
  ) {
    const file = readInclude(includePath(value) ?? '', where, read);
    return readProviders(parseDocument(file), file.path, read, skipped);
  }
  const entries = Array.isArray(value) ? value : [value];
  entries.slice(1).forEach((_, index) =>
    skipped.push({
      where: `${where}[${index + 1}]`,
      why: 'calltape runs a suite against one model; import again with this provider first, or compare models with run configurations (docs/run-configurations.md)',
    }),
  );
  const first = entries[0];
  if (first === undefined) return undefined;
  const at = Array.isArray(value) ? `${where}[0]` : where;
  const entry = typeof first === 'string' ? { id: first } : asObject(first, at);
  const id = entry['id'];
  if (typeof id !== 'string')
    throw new CalltapeError('CONFIG_INVALID', `${at}.id: missing or not a text`);
  const config = entry['config'] === undefined ? {} : asObject(entry['config'], `${at}.config`);
  return {
    where: at,
    id,
    model: modelOf(id, config),
    tools: readTools(config['tools'], `${at}.config.tools`, read),
    toolChoice: config['tool_choice'],
  };
}

/** `openai:gpt-4o`, `openai:chat:gpt-4o`, `openai:responses:gpt-4o` (and `config.model`): the model; other providers run an agent calltape does not know. */
function modelOf(id: string, config: Raw): string | undefined {
  const match = /^openai:(?:(chat|responses):)?(.+)$/.exec(id);
  if (!match) return undefined;
  const configured = config['model'];
  return typeof configured === 'string' && configured !== '' ? configured : match[2];
}

function readTools(
  value: JsonValue | undefined,
  where: string,
  read: ReadNamedFile | undefined,
): JsonValue[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') {
    const path = includePath(value);
    if (path === undefined)
      throw new CalltapeError('CONFIG_INVALID', `${where}: a list of tools or a file:// reference`);
    const file = readInclude(path, where, read);
    return readTools(parseDocument(file), file.path, read);
  }
  if (!Array.isArray(value))
    throw new CalltapeError('CONFIG_INVALID', `${where}: must be a list of tools`);
  return value.map((tool, index) =>
    chatTool(asObject(tool, `${where}[${index}]`), `${where}[${index}]`),
  );
}

/** A tool in Chat Completions shape, from Chat (`function: {…}`), Responses (`name` at the top) or Anthropic (`input_schema`). */
function chatTool(tool: Raw, where: string): JsonValue {
  if (tool['function'] !== undefined) {
    const fn = asObject(tool['function'], `${where}.function`);
    if (typeof fn['name'] !== 'string')
      throw new CalltapeError('CONFIG_INVALID', `${where}.function.name: missing or not a text`);
    return { type: 'function', function: fn };
  }
  const name = tool['name'];
  if (typeof name !== 'string')
    throw new CalltapeError('CONFIG_INVALID', `${where}.name: missing or not a text`);
  const parameters = tool['parameters'] ??
    tool['input_schema'] ?? { type: 'object', properties: {} };
  return {
    type: 'function',
    function: {
      name,
      ...(typeof tool['description'] === 'string' ? { description: tool['description'] } : {}),
      parameters,
    },
  };
}

function asObject(value: JsonValue | undefined, where: string): Raw {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value))
    throw new CalltapeError('CONFIG_INVALID', `${where}: must be an object`);
  return value;
}
