import type { Importer } from '../import-types.js';
import { failIn, parseJsonLines, parseJsonSource } from '../source-json.js';
import { convertOpenAiEvals } from './convert-openai-evals.js';
import { type EvalItem, readItemLines, readOpenAiEvalRun } from './read-openai-eval-run.js';
import { readOpenAiEval } from './read-openai-eval.js';

/** OpenAI Evals: the eval object, its items (JSONL) and optionally a run (prompt template, model, tools). */
export const openAiEvalsImporter: Importer = {
  description:
    'an OpenAI eval object (GET /v1/evals/{id}: data_source_config, testing_criteria), with --items items.jsonl and --run run.json',
  companions: [],
  files: [
    {
      option: 'items',
      description: 'the eval\'s items, JSONL ({"item": {...}} lines or bare objects)',
    },
    {
      option: 'run',
      description:
        'an eval run (GET /v1/evals/{id}/runs/{run_id}): its prompt template, model and tools',
    },
  ],
  convert(source, companions) {
    const evaluation = readOpenAiEval(parseJsonSource(source), failIn(source.path));
    const runFile = companions.get('run');
    const run = runFile
      ? readOpenAiEvalRun(parseJsonSource(runFile), runFile.path, failIn(runFile.path))
      : undefined;
    const itemsFile = companions.get('items');
    const items: EvalItem[] = itemsFile
      ? readItemLines(parseJsonLines(itemsFile), itemsFile.path)
      : [...(run?.items ?? [])];
    return convertOpenAiEvals(evaluation, items, run, { eval: source.path, run: runFile?.path });
  },
};
