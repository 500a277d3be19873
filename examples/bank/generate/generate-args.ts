/** The `calltape generate` arguments the demo records and replays (paths from the repository root). */
export const generateArgs = [
  'generate',
  '--guidelines',
  'examples/bank/generate/guidelines.yaml',
  '--tools',
  'examples/bank/tools.json',
  '--generator-model',
  'gpt-4o-mini',
  '--positive',
  '6',
  '--negative',
  '4',
  '--breadth',
  '3',
] as const;
