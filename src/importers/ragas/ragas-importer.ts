import type { Importer } from '../import-types.js';
import { failIn, objectAt, own, parseJsonSource } from '../source-json.js';
import { convertRagas } from './convert-ragas.js';
import { readRagasSamples } from './read-ragas-samples.js';

/** Ragas: MultiTurnSamples with reference_tool_calls (ToolCallAccuracy), JSON or JSONL. */
export const ragasImporter: Importer = {
  description:
    'Ragas MultiTurnSamples (user_input messages with tool_calls, reference_tool_calls) as JSON or JSONL, with --metric {"strict_order": false} for ToolCallAccuracy',
  companions: [],
  files: [
    {
      option: 'metric',
      description: 'ToolCallAccuracy\'s options as JSON ({"strict_order": false})',
    },
  ],
  convert(source, companions) {
    const metric = companions.get('metric');
    let strictOrder = true;
    if (metric) {
      const fail = failIn(metric.path);
      const given = own(objectAt(parseJsonSource(metric), '$', fail), 'strict_order');
      if (given !== undefined && typeof given !== 'boolean')
        fail('$.strict_order', 'expected true or false');
      strictOrder = given !== false;
    }
    const name = (source.path.split(/[\\/]/).at(-1) ?? source.path).replace(/\.jsonl?$/i, '');
    return convertRagas(
      readRagasSamples(source),
      strictOrder,
      { samples: source.path, metric: metric?.path },
      name,
    );
  },
};
