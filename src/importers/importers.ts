import { adkImporter } from './adk/adk-importer.js';
import { bfclImporter } from './bfcl/bfcl-importer.js';
import { deepEvalImporter } from './deepeval/deepeval-importer.js';
import type { Importer } from './import-types.js';
import { promptfooImporter } from './promptfoo/promptfoo-importer.js';
import { openAiEvalsImporter } from './openai-evals/openai-evals-importer.js';
import { ragasImporter } from './ragas/ragas-importer.js';

/** The formats `calltape import <kind>` reads, by kind (issue #36 adds promptfoo, OpenAI Evals, BFCL). */
export const importers = {
  adk: adkImporter,
  promptfoo: promptfooImporter,
  'openai-evals': openAiEvalsImporter,
  deepeval: deepEvalImporter,
  ragas: ragasImporter,
  bfcl: bfclImporter,
} as const satisfies { readonly [kind: string]: Importer };

export type ImportKind = keyof typeof importers;

/** The importer of a kind named on the command line; undefined for an unknown kind (read as data). */
export function importerOf(kind: string): Importer | undefined {
  return Object.hasOwn(importers, kind) ? importers[kind as ImportKind] : undefined;
}
