import { CalltapeError } from '../../errors.js';
import type { JsonValue } from '../../trace/trace.js';
import type { Importer } from '../import-types.js';
import { convertPromptfoo } from './convert-promptfoo.js';
import { parseDocument } from './read-include.js';
import { readPrompts, readProviders, type SetupSkip } from './read-promptfoo-setup.js';
import { readPromptfooTests } from './read-promptfoo-tests.js';

/** promptfoo's `promptfooconfig.yaml` (or .json) and the files its `file://` references name. */
export const promptfooImporter: Importer = {
  description:
    'promptfoo configs: promptfooconfig.yaml (or .json) with the prompts, tools and tests its file:// references name',
  companions: [],
  convert(source, _companions, read) {
    const value = parseDocument(source);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${source.path}: a promptfoo config is a mapping (prompts, providers, tests)`,
      );
    const config: { readonly [key: string]: JsonValue } = value;
    const skipped: SetupSkip[] = [];
    const prompts = readPrompts(config['prompts'], `${source.path}: prompts`, read, skipped);
    const provider = readProviders(
      config['providers'] ?? config['targets'],
      `${source.path}: ${config['providers'] === undefined && config['targets'] !== undefined ? 'targets' : 'providers'}`,
      read,
      skipped,
    );
    const { tests, skipped: skippedTests } = readPromptfooTests(config, source.path, read);
    const description = config['description'];
    return convertPromptfoo({
      file: source.path,
      name: suiteName(source.path),
      description: typeof description === 'string' ? description : undefined,
      prompts,
      provider,
      tests,
      skipped: [...skipped, ...skippedTests],
    });
  },
};

/** The suite's name: the config's folder when the file has promptfoo's default name, else the file's base name. */
function suiteName(path: string): string {
  const parts = path.split(/[\\/]/);
  const base = parts.at(-1) ?? path;
  const stem = base.replace(/\.(ya?ml|json)$/i, '');
  return /^promptfooconfig$/i.test(stem) ? (parts.at(-2) ?? 'promptfoo') : stem;
}
