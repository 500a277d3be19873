import type { Importer } from '../import-types.js';
import { failIn, parseJsonSource } from '../source-json.js';
import { convertDeepEval } from './convert-deepeval.js';
import { readDeepEvalDataset } from './read-deepeval-dataset.js';
import { readToolCorrectness, toolCorrectnessDefaults } from './read-tool-correctness.js';

/** DeepEval: an EvaluationDataset (JSON or CSV) of goldens with expected_tools, and ToolCorrectnessMetric's options. */
export const deepEvalImporter: Importer = {
  description:
    'a DeepEval EvaluationDataset saved as JSON or CSV (goldens with input and expected_tools), with --metric options.json for ToolCorrectnessMetric',
  companions: [],
  files: [
    {
      option: 'metric',
      description:
        "ToolCorrectnessMetric's options as JSON (threshold, evaluation_params, should_exact_match, should_consider_ordering, strict_mode)",
    },
  ],
  convert(source, companions) {
    const metric = companions.get('metric');
    const options = metric
      ? readToolCorrectness(parseJsonSource(metric), failIn(metric.path))
      : toolCorrectnessDefaults;
    const name = (source.path.split(/[\\/]/).at(-1) ?? source.path).replace(/\.(json|csv)$/i, '');
    return convertDeepEval(
      readDeepEvalDataset(source),
      options,
      { dataset: source.path, metric: metric?.path },
      name,
    );
  },
};
