import type { RecordedStream, RecordedTurn } from './recorded-streams.js';

/**
 * Real Gemini streams (see `src/providers/gemini/__fixtures__/README.md`), each read in both
 * streaming forms: the `?alt=sse` events and the JSON array. The calls carry no `functionCall.id`,
 * so each has the id calltape makes from its name and arguments.
 */
const turns: readonly { readonly file: string; readonly expected: RecordedTurn }[] = [
  {
    // One call, signed, then a last chunk with an empty text part and the finish reason.
    file: 'ai-sdk-google-tool-call.chunks.txt',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        {
          id: 'gemini-84264431351bf45c',
          name: 'weather',
          argumentsRaw: '{"location":"San Francisco"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'STOP' },
      usage: { input: 29, output: 15 + 45 },
    },
  },
  {
    // Two parallel calls, their arguments streamed as partialArgs (streamFunctionCallArguments).
    file: 'ai-sdk-google-stream-tool-call-arguments.chunks.txt',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        {
          id: 'gemini-b3d85a3a3faf5a85',
          name: 'getWeather',
          argumentsRaw: '{"location":"Boston"}',
          complete: true,
        },
        {
          id: 'gemini-f23418362a746c2',
          name: 'getWeather',
          argumentsRaw: '{"location":"San Francisco"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'STOP' },
      usage: { input: 26, output: 23 + 132 },
    },
  },
  {
    // A thought part (not text), then four calls: one without arguments, three streamed.
    file: 'ai-sdk-google-stream-no-args-tool-call.chunks.txt',
    expected: {
      status: 'complete',
      text: '',
      calls: [
        { id: 'gemini-26b69728b597e915', name: 'read_theme', argumentsRaw: '{}', complete: true },
        {
          id: 'gemini-e8ffd4f00c16ce7e',
          name: 'read_screen',
          argumentsRaw: '{"id":"A"}',
          complete: true,
        },
        {
          id: 'gemini-f1a9f9f010ffee07',
          name: 'read_screen',
          argumentsRaw: '{"id":"B"}',
          complete: true,
        },
        {
          id: 'gemini-f98722f01539faf8',
          name: 'read_screen',
          argumentsRaw: '{"id":"C"}',
          complete: true,
        },
      ],
      finish: { unified: 'tool-calls', raw: 'STOP' },
      usage: { input: 249, output: 58 + 183 },
    },
  },
  {
    // Text in two chunks, the signature on a trailing empty text part.
    file: 'ai-sdk-google-text.chunks.txt',
    expected: {
      status: 'complete',
      text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
      calls: [],
      finish: { unified: 'stop', raw: 'STOP' },
      usage: { input: 9, output: 23 + 185 },
    },
  },
];

export const geminiRecordedStreams: readonly RecordedStream[] = turns.flatMap(
  ({ file, expected }): RecordedStream[] =>
    (['data-lines', 'json-array'] as const).map((framing) => ({
      wire: 'gemini',
      file,
      framing,
      expected,
    })),
);
