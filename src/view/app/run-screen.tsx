import { useMemo, useState } from 'preact/hooks';
import {
  configurationsPath,
  type CaseRow,
  type ConfigurationsAnswer,
  type RunAnswer,
  type RunsAnswer,
} from '../api-types.js';
import { useApi } from './api-client.js';
import { useReadyMark } from './ready-mark.js';
import { ConfigurationTable } from './configuration-table.js';
import { duration, when } from './format.js';
import { LoadedView, StatusBadge } from './loaded-view.js';
import { RunFacts } from './run-facts.js';
import { ReplayMisses } from './replay-misses.js';
import { href } from './router.js';

/** One run: its facts, its gates, its cases with filters and search, and its replay misses. */
export function RunScreen({ id }: { id: number }) {
  const loaded = useApi<RunAnswer>(`runs/${id}`);
  useReadyMark(loaded.state === 'ready');
  return (
    <section aria-labelledby="run-title">
      <p class="crumbs">
        <a href="#/runs">Runs</a> / run #{id}
      </p>
      <LoadedView loaded={loaded} what={`run #${id}`}>
        {(answer) => <RunBody answer={answer} />}
      </LoadedView>
    </section>
  );
}

function RunBody({ answer }: { answer: RunAnswer }) {
  const { run } = answer;
  return (
    <>
      <h1 id="run-title">
        Run #{run.id} · {run.suite}
      </h1>
      <RunFacts run={run} />
      <p class="muted">
        Suite <code>{answer.file}</code> · cassette <code>{answer.cassette}</code>
      </p>
      <CompareWith answer={answer} />
      {run.configs.length > 1 && <SideBySide id={run.id} />}
      <h2>Gates</h2>
      {answer.gates.length === 0 ? (
        <p class="muted">The suite sets no gates.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Quality gates</caption>
            <thead>
              <tr>
                <th scope="col">Gate</th>
                <th scope="col">Configuration</th>
                <th scope="col">Verdict</th>
                <th scope="col">Measured</th>
              </tr>
            </thead>
            <tbody>
              {answer.gates.map((gate, index) => (
                <tr key={index}>
                  <th scope="row">
                    {gate.gate}
                    {gate.subject !== null && ` ${gate.subject}`}
                  </th>
                  <td>{gate.run}</td>
                  <td>
                    <StatusBadge status={gate.pass ? 'pass' : 'fail'} />
                  </td>
                  <td>{gate.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CaseList answer={answer} />
      {answer.replay_misses && <ReplayMisses misses={answer.replay_misses} />}
    </>
  );
}

/** A run of several configurations: them side by side. */
function SideBySide({ id }: { id: number }) {
  const loaded = useApi<ConfigurationsAnswer>(configurationsPath([String(id)]));
  return (
    <>
      <h2>Configurations side by side</h2>
      <LoadedView loaded={loaded} what="the configurations">
        {(answer) => (
          <ConfigurationTable matrix={answer.matrix} caption={`Configurations of run #${id}`} />
        )}
      </LoadedView>
    </>
  );
}

/** Links to compare this run with its baseline, or with another run of the suite. */
function CompareWith({ answer }: { answer: RunAnswer }) {
  const { run, baseline } = answer;
  const others = useApi<RunsAnswer>(`runs?suite=${encodeURIComponent(run.suite)}&limit=50`);
  const [other, setOther] = useState('');
  const choices =
    others.state === 'ready' ? others.data.runs.filter((item) => item.id !== run.id) : [];
  return (
    <div class="compare-with">
      {baseline?.run_id != null && (
        <p>
          Baseline: {baseline.label} ·{' '}
          <a href={href.compare(baseline.run_id, run.id)}>compare with it</a>
        </p>
      )}
      {choices.length > 0 && (
        <form
          class="filters"
          aria-label="Compare with another run"
          onSubmit={(event) => {
            event.preventDefault();
            if (other !== '') location.hash = href.compare(Number(other), run.id);
          }}
        >
          <div class="field">
            <label for="compare-other">Compare with</label>
            <select
              id="compare-other"
              value={other}
              onChange={(event) => setOther(event.currentTarget.value)}
            >
              <option value="">choose a run</option>
              {choices.map((item) => (
                <option key={item.id} value={String(item.id)}>
                  #{item.id} · {when(item.started_at)}
                  {item.git_branch !== null ? ` · ${item.git_branch}` : ''}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={other === ''}>
            Compare
          </button>
        </form>
      )}
    </div>
  );
}

interface CaseFilters {
  readonly status: string;
  readonly config: string;
  readonly search: string;
  readonly flaky: boolean;
}

function matches(row: CaseRow, filters: CaseFilters): boolean {
  const search = filters.search.trim().toLowerCase();
  return (
    (filters.status === '' || row.status === filters.status) &&
    (filters.config === '' || row.run === filters.config) &&
    (!filters.flaky || row.samples?.flaky === true) &&
    (search === '' ||
      [row.test_id, ...row.tags, ...row.tools, ...row.called, row.problem ?? '']
        .join('\n')
        .toLowerCase()
        .includes(search))
  );
}

function CaseList({ answer }: { answer: RunAnswer }) {
  const [filters, setFilters] = useState<CaseFilters>({
    status: '',
    config: '',
    search: '',
    flaky: false,
  });
  const configs = answer.run.configs.map((config) => config.name);
  const shown = useMemo(
    () => answer.cases.filter((row) => matches(row, filters)),
    [answer, filters],
  );
  return (
    <>
      <h2>Cases</h2>
      <form class="filters" aria-label="Filter cases" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="cases-search">Search</label>
          <input
            id="cases-search"
            type="search"
            value={filters.search}
            placeholder="test id, tag, tool, problem"
            onInput={(event) => setFilters({ ...filters, search: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="cases-status">Status</label>
          <select
            id="cases-status"
            value={filters.status}
            onChange={(event) => setFilters({ ...filters, status: event.currentTarget.value })}
          >
            <option value="">all</option>
            {['pass', 'fail', 'error', 'unreliable'].map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </div>
        {configs.length > 1 && (
          <div class="field">
            <label for="cases-config">Configuration</label>
            <select
              id="cases-config"
              value={filters.config}
              onChange={(event) => setFilters({ ...filters, config: event.currentTarget.value })}
            >
              <option value="">all</option>
              {configs.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </div>
        )}
        <label class="inline">
          <input
            type="checkbox"
            checked={filters.flaky}
            onChange={(event) => setFilters({ ...filters, flaky: event.currentTarget.checked })}
          />
          flaky only
        </label>
      </form>
      <p class="muted" aria-live="polite">
        {shown.length} of {answer.cases.length} cases
      </p>
      <div class="table-wrap">
        <table class="cases">
          <caption class="visually-hidden">Cases of run #{answer.run.id}</caption>
          <thead>
            <tr>
              <th scope="col">Case</th>
              {configs.length > 1 && <th scope="col">Configuration</th>}
              <th scope="col">Status</th>
              <th scope="col">Score</th>
              <th scope="col">Expected tool</th>
              <th scope="col">Called</th>
              <th scope="col">Tags</th>
              <th scope="col">Duration</th>
              <th scope="col">Problem / change from baseline</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={`${row.run}\n${row.test_id}`}>
                <th scope="row">
                  <a href={href.case(answer.run.id, row.run, row.test_id)}>{row.test_id}</a>
                </th>
                {configs.length > 1 && <td>{row.run}</td>}
                <td>
                  <StatusBadge status={row.status} />
                  {row.samples && (
                    <span
                      class={row.samples.flaky ? 'badge flaky' : 'muted'}
                      title="samples passed of run (repeats)"
                    >
                      {' '}
                      {row.samples.passed}/{row.samples.total}
                      {row.samples.flaky ? ' flaky' : ''}
                    </span>
                  )}
                </td>
                <td>{row.score.toFixed(3)}</td>
                <td>{row.tools.join(', ') || <span class="muted">none</span>}</td>
                <td>{row.called.join(', ')}</td>
                <td>{row.tags.join(', ')}</td>
                <td>{duration(row.duration_ms)}</td>
                <td>
                  {row.problem}
                  {row.change !== null && <div class="change">Δ {row.change}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
