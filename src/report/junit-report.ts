import { XMLBuilder } from 'fast-xml-parser';
import type { SuiteRunResult } from './run-result.js';
import {
  callsLine,
  caseName,
  conversationLines,
  mockStateLines,
  samplesLine,
} from './report-text.js';
import { caseChangeOf } from './behaviour-diff-text.js';

/**
 * JUnit XML as CI systems read it (GitHub, GitLab, Jenkins): one `testsuite` per run
 * configuration, one `testcase` per case, a `failure` carrying the per-argument diff or an
 * `error` for a case that could not run, and the agent's output in `system-out`/`system-err`.
 */
export function junitReport(result: SuiteRunResult): string {
  const suites = result.runs.map((run) => {
    const cases = result.cases.filter((item) => item.run === run.run);
    return {
      '@_name': result.runs.length > 1 ? `${result.suite} [${run.run}]` : result.suite,
      '@_tests': cases.length,
      '@_failures': cases.filter((item) => item.status === 'fail').length,
      '@_errors': cases.filter((item) => item.status === 'error').length,
      '@_skipped': cases.filter((item) => item.status === 'unreliable').length,
      '@_time': seconds(cases.reduce((sum, item) => sum + item.duration_ms, 0)),
      '@_timestamp': result.started_at.replace(/\.\d+Z$/, ''),
      testcase: cases.map((item) => ({
        '@_name': item.test_id,
        '@_classname': `${result.suite}.${run.run}`,
        '@_time': seconds(item.duration_ms),
        // A repeated case's tally where CI shows a test's properties.
        ...(item.samples
          ? {
              properties: {
                property: [
                  {
                    '@_name': 'samples',
                    '@_value': `${item.samples.passed}/${item.samples.total}`,
                  },
                  { '@_name': 'flaky', '@_value': String(item.samples.flaky) },
                ],
              },
            }
          : {}),
        ...(item.status === 'fail'
          ? {
              failure: {
                '@_message': failureMessage(result, item),
                '@_type': 'calltape.fail',
                '#text': detail(result, item),
              },
            }
          : {}),
        // Neither pass nor fail: CI shows it as skipped, with why.
        ...(item.status === 'unreliable'
          ? { skipped: { '@_message': firstDifference(item.problems[0] ?? 'unreliable') } }
          : {}),
        ...(item.status === 'error'
          ? {
              error: {
                '@_message': firstDifference(item.error ?? item.problems[0] ?? 'error'),
                '@_type': 'calltape.error',
                '#text': detail(result, item),
              },
            }
          : {}),
        ...(item.agent?.stdout ? { 'system-out': item.agent.stdout } : {}),
        ...(item.agent?.stderr ? { 'system-err': item.agent.stderr } : {}),
      })),
    };
  });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- moving to fast-xml-builder is a dependency change of its own
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    format: true,
    suppressEmptyNode: true,
    // Else an attribute whose value is "true" is written bare (`value`), which is not XML.
    suppressBooleanAttributes: false,
    processEntities: true,
  });
  const body = builder.build({
    testsuites: {
      '@_name': `calltape ${result.suite}`,
      '@_tests': result.cases.length,
      '@_failures': result.cases.filter((item) => item.status === 'fail').length,
      '@_errors': result.cases.filter((item) => item.status === 'error').length,
      '@_time': seconds(result.duration_ms),
      testsuite: suites,
    },
  }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

function detail(result: SuiteRunResult, item: SuiteRunResult['cases'][number]): string {
  const change = caseChangeOf(result.baseline, item.run, item.test_id);
  return [
    `case ${caseName(result, item)}: score ${item.score}${item.samples ? `; ${samplesLine(item)}` : ''}`,
    `called: ${callsLine(item)}`,
    ...conversationLines(item),
    ...mockStateLines(item),
    ...item.problems,
    ...(change && result.baseline
      ? [`since ${result.baseline.label}: ${change.first_difference}`]
      : []),
  ].join('\n');
}

/**
 * A failing case's message: its first problem whole, and what its behaviour changed since the
 * baseline — CI pages often show only the message, so it carries the whole first difference.
 */
function failureMessage(result: SuiteRunResult, item: SuiteRunResult['cases'][number]): string {
  const change = caseChangeOf(result.baseline, item.run, item.test_id);
  const since =
    change && result.baseline ? `; since ${result.baseline.label}: ${change.first_difference}` : '';
  return firstDifference(`${item.problems[0] ?? 'failed'}${since}`);
}

/**
 * A message on one line (XML attributes lose line breaks): a miss's first line ends with "differs
 * at messages[0].content:" and the difference itself is on the next, so that line comes along.
 */
function firstDifference(text: string): string {
  const lines = text.split('\n').map((line) => line.trim());
  const [first = '', second] = lines;
  const whole = first.endsWith(':') && second !== undefined ? `${first} ${second}` : first;
  return whole.length > 2000 ? `${whole.slice(0, 1999)}…` : whole;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
