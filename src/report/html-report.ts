import { escapeHtml } from './escape-html.js';
import { pct } from './pct.js';
import type { SuiteRunResult } from './run-result.js';
import { configurationHtmlTable } from './configuration-html.js';
import { configurationMatrix } from './configuration-matrix.js';
import { caseName, groupRows, offeredLine } from './report-text.js';
import { htmlBehaviourDiff, htmlReplayMisses } from './html-changes.js';
import { missedCaseLine } from './replay-miss-summary.js';

/**
 * One self-contained HTML page (no external files, works offline): the verdict, tables per run
 * configuration and expected tool, the gates, and every case with filters by status and text; a
 * case opens to its problems (per-argument diffs) and a timeline of its rounds and calls.
 */
export function htmlReport(result: SuiteRunResult): string {
  const runs = result.runs
    .map(
      (run) =>
        `<tr><td>${esc(run.run)}</td><td>${esc(run.model ?? '-')}</td><td>${esc(run.total)}</td><td>${esc(run.passed)}</td><td>${esc(run.failed)}</td><td>${esc(run.errors)}</td><td>${esc(run.unreliable ?? 0)}</td><td>${esc(pct(run.pass_rate))}</td><td>${esc(fixed(run.mean_score))}</td><td class="offered">${esc(offeredLine(run))}</td></tr>`,
    )
    .join('');
  const tools = groupRows(result, 'tools')
    .map(
      (row) =>
        `<tr><td>${esc(row.run)}</td><td>${esc(row.group)}</td><td>${esc(row.total)}</td><td>${esc(row.passed)}</td><td>${esc(row.rate)}</td></tr>`,
    )
    .join('');
  const gates = result.gates
    .map(
      (gate) =>
        `<li class="${gate.pass ? 'pass' : 'fail'}"><b>${gate.pass ? 'pass' : 'FAIL'}</b> <code>${esc(gate.gate)}${gate.subject ? ` ${esc(gate.subject)}` : ''}</code>${result.runs.length > 1 ? ` [${esc(gate.run)}]` : ''}: ${esc(gate.message)}</li>`,
    )
    .join('');
  const cases = result.cases
    .map((item) => {
      const rounds = new Map<number, typeof item.calls>();
      for (const call of item.calls)
        rounds.set(call.round, [...(rounds.get(call.round) ?? []), call]);
      const timeline = [...rounds.entries()]
        .map(
          ([round, calls]) =>
            `<li><span class="round">round ${esc(round)}</span> ${calls.map((call) => `<code>${esc(call.name)}(${esc(call.arguments)})</code>${call.mocked ? ' <span class="badge">mocked</span>' : ''}`).join(' ‖ ')}</li>`,
        )
        .join('');
      const missed = missedCaseLine(result.replay_misses, caseName(result, item));
      const problems = missed === undefined ? item.problems : [missed];
      const search =
        `${caseName(result, item)} ${item.tags.join(' ')} ${item.tools.join(' ')}`.toLowerCase();
      return `<details class="case ${esc(item.status)}" data-status="${esc(item.status)}" data-search="${esc(search)}"><summary><span class="status">${esc(item.status)}</span> ${esc(caseName(result, item))} <span class="score">${esc(fixed(item.score))}</span>${sampleBadges(item)}${item.tags.map((tag) => ` <span class="tag">${esc(tag)}</span>`).join('')}</summary>${problems.length > 0 ? `<pre>${esc(problems.join('\n'))}</pre>` : ''}${sampleList(item)}<ol class="timeline">${timeline || '<li>no tool call</li>'}</ol><p class="facts">${esc(item.rounds)} round(s) · ${esc(item.duration_ms)} ms · ${esc(item.tokens.input)} + ${esc(item.tokens.output)} tokens${item.agent ? ` · agent exit ${esc(item.agent.exit_code ?? item.agent.signal ?? '?')}` : ''}</p>${item.agent?.stdout ? `<pre class="out">${esc(item.agent.stdout)}</pre>` : ''}${item.agent?.stderr ? `<pre class="out err">${esc(item.agent.stderr)}</pre>` : ''}</details>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>calltape test: ${esc(result.suite)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1 .verdict{font-size:.8em;padding:.1em .5em;border-radius:.3em;color:#fff}.verdict.pass{background:#1a7f37}.verdict.fail{background:#cf222e}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left}
li.fail{color:#cf222e}li.pass{color:#1a7f37}.filters{margin:1rem 0;display:flex;gap:.5rem;flex-wrap:wrap}
.filters button{border:1px solid #d0d7de;background:#f6f8fa;border-radius:.3rem;padding:.2rem .7rem;cursor:pointer}.filters button.on{background:#0969da;color:#fff}
details.case{border:1px solid #d0d7de;border-left-width:.4rem;border-radius:.3rem;margin:.3rem 0;padding:.3rem .6rem}
details.pass{border-left-color:#1a7f37}details.fail{border-left-color:#cf222e}details.error{border-left-color:#bf8700}details.unreliable{border-left-color:#8250df}
.status{font-weight:600;text-transform:uppercase;font-size:.8em}.score{float:right;font-variant-numeric:tabular-nums}
.tag,.badge{font-size:.75em;background:#ddf4ff;border-radius:1em;padding:0 .5em}.badge{background:#fff8c5}.badge.flaky{background:#ffebe9}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;white-space:pre-wrap}.out{max-height:12rem}.err{background:#ffebe9}
.round{color:#57606a;font-size:.85em}.facts{color:#57606a;font-size:.85em}
</style></head><body>
<h1>calltape test: ${esc(result.suite)} <span class="verdict ${result.passed ? 'pass' : 'fail'}">${result.passed ? 'passed' : 'failed'}</span></h1>
<p>${esc(result.drive)} mode · ${esc(result.mode)} · ${esc(result.cases.length)} case run(s) in ${esc(typeof result.duration_ms === 'number' ? (result.duration_ms / 1000).toFixed(1) : result.duration_ms)} s · cassette <code>${esc(result.cassette)}</code> · ${esc(result.started_at)}</p>
<table><tr><th>run</th><th>model</th><th>cases</th><th>passed</th><th>failed</th><th>errors</th><th>unreliable</th><th>pass rate</th><th>mean score</th><th>tools offered</th></tr>${runs}</table>
${result.runs.length > 1 ? `<h2>Configurations side by side</h2>${configurationHtmlTable(configurationMatrix(result))}` : ''}
${tools ? `<table><tr><th>run</th><th>expected tool</th><th>cases</th><th>passed</th><th>pass rate</th></tr>${tools}</table>` : ''}
<h2>Gates</h2><ul>${gates}</ul>
${htmlBehaviourDiff(result)}${htmlReplayMisses(result)}
<h2>Cases</h2>
<div class="filters"><button data-filter="all" class="on">all</button><button data-filter="fail">fail</button><button data-filter="error">error</button><button data-filter="unreliable">unreliable</button><button data-filter="pass">pass</button><input id="q" type="search" placeholder="filter by id, tag or tool"></div>
<div id="cases">
${cases}
</div>
<script>
(() => {
  let status = 'all';
  const apply = () => {
    const q = document.getElementById('q').value.toLowerCase();
    for (const el of document.querySelectorAll('#cases details')) el.hidden = !((status === 'all' || el.dataset.status === status) && el.dataset.search.includes(q));
  };
  for (const button of document.querySelectorAll('.filters button')) button.addEventListener('click', () => {
    status = button.dataset.filter;
    for (const other of document.querySelectorAll('.filters button')) other.classList.toggle('on', other === button);
    apply();
  });
  document.getElementById('q').addEventListener('input', apply);
})();
</script>
</body></html>
`;
}

/** Every value a page shows is escaped, numbers too: a report may be read from a file anyone wrote (a shard blob). */
const esc = (value: string | number): string => escapeHtml(String(value));
const fixed = (value: number): string =>
  typeof value === 'number' ? value.toFixed(3) : String(value);

/** A repeated case's samples, one line each, inside the opened case. */
function sampleList(item: SuiteRunResult['cases'][number]): string {
  if (!item.samples) return '';
  return `<ol class="samples">${item.samples.results.map((sample) => `<li><span class="status">${esc(sample.status)}</span> sample ${esc(sample.sample)} · score ${esc(fixed(sample.score))}${sample.problems[0] ? ` · ${esc(sample.problems[0])}` : ''}</li>`).join('')}</ol>`;
}

/** A repeated case's k/n and flaky mark, beside its score. */
function sampleBadges(item: SuiteRunResult['cases'][number]): string {
  if (!item.samples) return '';
  const { passed, total, flaky } = item.samples;
  return ` <span class="badge samples" title="samples passed">${esc(passed)}/${esc(total)}</span>${flaky ? ' <span class="badge flaky">flaky</span>' : ''}`;
}
