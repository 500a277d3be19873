/** One promptfoo `javascript` assertion a code judge runs. */
export interface JudgeCheck {
  /** The function body, run as promptfoo runs it: `function (output, context) { … }`. */
  readonly body: string;
  readonly inverse: boolean;
  readonly threshold: number | undefined;
  readonly where: string;
}

/**
 * The text of a code judge module (`judge(trajectory)`) running a test's `javascript` assertions
 * on the `output` promptfoo would give them: for an answer of tool calls only, the calls in
 * Chat Completions shape; for calls with text, the message; else the text (promptfoo's OpenAI
 * chat provider, src/providers/openai/chat.ts). The result is read as promptfoo reads it: a
 * boolean, a number (≥ threshold, or > 0 without one), or `{ pass, score, reason }`.
 */
export function judgeModule(source: string, testId: string, checks: readonly JudgeCheck[]): string {
  const entries = checks
    .map(
      (check) =>
        `  {\n    where: ${JSON.stringify(check.where)},\n    inverse: ${String(check.inverse)},\n    threshold: ${check.threshold === undefined ? 'undefined' : String(check.threshold)},\n    run: function (output, context) {\n${check.body}\n},\n  },`,
    )
    .join('\n');
  return `// Written by calltape import promptfoo from ${JSON.stringify(source)}: the javascript
// assertions of case ${JSON.stringify(testId)}, run on the output promptfoo would give them.
const checks = [
${entries}
];

function promptfooOutput(trajectory) {
  const turn = trajectory.turns[0];
  if (!turn) return '';
  const calls = turn.calls
    .filter((call) => call.hosted === undefined)
    .map((call, index) => ({
      id: call.id ?? \`call_\${index}\`,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsRaw },
    }));
  if (calls.length === 0) return turn.text;
  return turn.text ? { role: 'assistant', content: turn.text, tool_calls: calls } : calls;
}

function verdict(result, threshold) {
  if (typeof result === 'boolean') return { pass: result, score: result ? 1 : 0 };
  if (typeof result === 'number')
    return { pass: threshold === undefined ? result > 0 : result >= threshold, score: result };
  if (result !== null && typeof result === 'object' && typeof result.pass === 'boolean')
    return { pass: result.pass, score: typeof result.score === 'number' ? result.score : Number(result.pass), reason: result.reason };
  return { pass: false, score: 0, reason: \`returned \${JSON.stringify(result)}\` };
}

export function judge(trajectory) {
  const failed = [];
  for (const check of checks) {
    let result;
    try {
      result = verdict(check.run(promptfooOutput(trajectory), undefined), check.threshold);
    } catch (error) {
      result = { pass: false, score: 0, reason: \`threw \${error instanceof Error ? error.message : String(error)}\` };
    }
    if (result.pass === check.inverse)
      failed.push(\`\${check.where}: \${result.reason ?? (check.inverse ? 'holds, and the assertion is negated' : 'does not hold')}\`);
  }
  return failed.length === 0
    ? { pass: true, score: 1 }
    : { pass: false, score: 0, reason: failed.join('; ') };
}
`;
}
