import type { HostedToolCall, JsonValue } from '../../trace/trace.js';
import { asArray, asObject, asString, parseJson, type JsonObject } from '../json-access.js';

/**
 * Tools Gemini runs itself, read off a whole (or merged) candidate: `codeExecution` answers with
 * an `executableCode` part followed by its `codeExecutionResult` part(s); `googleSearch` leaves
 * `groundingMetadata` (the queries run, the sources found) on the candidate; `urlContext` leaves
 * `urlContextMetadata` (each URL fetched and how). Shapes: https://ai.google.dev/api/generate-content
 * (Part, GroundingMetadata, UrlContextMetadata). `finished` says whether the turn ended: code whose
 * result never arrived is an incomplete call then, with no result.
 */
export function geminiHostedCalls(candidate: JsonObject, finished: boolean): HostedToolCall[] {
  const calls: Omit<HostedToolCall, 'index'>[] = [
    ...codeCalls(
      asArray(asObject(candidate['content'])?.['parts']).map((part) => asObject(part) ?? {}),
      finished,
    ),
  ];
  const grounding = asObject(candidate['groundingMetadata']);
  const queries = asArray(grounding?.['webSearchQueries']);
  const sources = asArray(grounding?.['groundingChunks']);
  if (grounding && (queries.length > 0 || sources.length > 0))
    calls.push(
      hosted(
        'google_search',
        'groundingMetadata',
        undefined,
        { queries: [...queries] },
        {
          text: sources
            .map((source) => {
              const chunk = asObject(source) ?? {};
              const found =
                asObject(chunk['web']) ??
                asObject(chunk['retrievedContext']) ??
                asObject(chunk['maps']);
              return asString(found?.['uri']);
            })
            .filter((uri): uri is string => uri !== undefined)
            .join('\n'),
          isError: false,
        },
      ),
    );
  const fetched = asArray(asObject(candidate['urlContextMetadata'])?.['urlMetadata']).map(
    (entry) => asObject(entry) ?? {},
  );
  if (fetched.length > 0)
    calls.push(
      hosted(
        'url_context',
        'urlContextMetadata',
        undefined,
        { urls: fetched.map((entry) => entry['retrievedUrl'] ?? null) },
        {
          text: fetched
            .map(
              (entry) =>
                `${asString(entry['retrievedUrl']) ?? ''} ${asString(entry['urlRetrievalStatus']) ?? ''}`,
            )
            .join('\n'),
          isError: fetched.some(
            (entry) => entry['urlRetrievalStatus'] !== 'URL_RETRIEVAL_STATUS_SUCCESS',
          ),
        },
      ),
    );
  return calls.map((call, index) => ({ ...call, index }));
}

/** Each `executableCode` part with the `codeExecutionResult` parts after it (by `id` where given). */
function codeCalls(
  parts: readonly JsonObject[],
  finished: boolean,
): Omit<HostedToolCall, 'index'>[] {
  const runs: { code: JsonObject; results: JsonObject[] }[] = [];
  for (const part of parts) {
    const code = asObject(part['executableCode']);
    const result = asObject(part['codeExecutionResult']);
    if (code) runs.push({ code, results: [] });
    else if (result) {
      const id = asString(result['id']);
      const run =
        (id === undefined ? undefined : runs.find((candidate) => candidate.code['id'] === id)) ??
        runs.at(-1);
      run?.results.push(result);
    }
  }
  return runs.map(({ code, results }) => {
    const answered = results.length > 0;
    return hosted(
      'code_execution',
      'executableCode',
      asString(code['id']),
      { language: code['language'] ?? null, code: code['code'] ?? '' },
      answered
        ? {
            text: results.map((result) => asString(result['output']) ?? '').join(''),
            isError: results.some((result) => result['outcome'] !== 'OUTCOME_OK'),
          }
        : undefined,
      answered || finished,
    );
  });
}

function hosted(
  name: string,
  kind: string,
  id: string | undefined,
  args: JsonValue,
  result: HostedToolCall['result'],
  complete = true,
): Omit<HostedToolCall, 'index'> {
  const argumentsRaw = JSON.stringify(args);
  return {
    id,
    name,
    argumentsRaw,
    arguments: parseJson(argumentsRaw),
    complete,
    kind,
    server: undefined,
    result,
  };
}
