/**
 * `npm run demo:record`: re-records recordings/bank-demo.sqlite, the cassette the demo replays.
 * The bundled scripted model stands in for the provider, so this too runs offline; point
 * --upstream at a real provider (and set OPENAI_API_KEY) to record a real model instead.
 */
import { recordExampleSuite } from '../record-example-suite.js';
import { scriptedBankModel } from './scripted-bank-model.js';

process.exitCode = await recordExampleSuite(
  'examples/bank/suite.yaml',
  'recordings/bank-demo.sqlite',
  (request) => scriptedBankModel(request),
  ['--now', '2026-11-30T12:00:00Z', '--concurrency', '4'],
);
