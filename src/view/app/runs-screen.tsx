import { useState } from 'preact/hooks';
import { maxComparedRuns, type RunListing, type RunsAnswer } from '../api-types.js';
import { useApi } from './api-client.js';
import { useReadyMark } from './ready-mark.js';
import { duration, percent, when } from './format.js';
import { PassRateChart } from './pass-rate-chart.js';
import { href } from './router.js';

/** The filters the runs list offers: an exact suite, run configuration and branch, or all. */
interface Filters {
  readonly suite: string;
  readonly config: string;
  readonly branch: string;
}

function query(filters: Filters): string {
  const params = new URLSearchParams();
  for (const name of ['suite', 'config', 'branch'] as const)
    if (filters[name] !== '') params.set(name, filters[name]);
  const text = params.toString();
  return text === '' ? 'runs' : `runs?${text}`;
}

/** Every stored run, newest first, with filters by suite, configuration and branch. */
export function RunsScreen() {
  const [filters, setFilters] = useState<Filters>({ suite: '', config: '', branch: '' });
  const loaded = useApi<RunsAnswer>(query(filters));
  useReadyMark(loaded.state === 'ready');
  // Runs picked to put their configurations side by side; kept while the filters change.
  const [picked, setPicked] = useState<readonly number[]>([]);
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Runs</h1>
      {loaded.state === 'loading' && <p aria-live="polite">Loading runs…</p>}
      {loaded.state === 'failed' && (
        <p role="alert" class="problem">
          {loaded.message}
        </p>
      )}
      {loaded.state === 'ready' && (
        <>
          <FilterBar answer={loaded.data} filters={filters} onChange={(next) => setFilters(next)} />
          <PassRateChart runs={loaded.data.runs} />
          <RunsTable answer={loaded.data} picked={picked} onPick={setPicked} />
        </>
      )}
    </section>
  );
}

function FilterBar({
  answer,
  filters,
  onChange,
}: {
  answer: RunsAnswer;
  filters: Filters;
  onChange: (filters: Filters) => void;
}) {
  const choice = (name: keyof Filters, label: string, values: readonly string[]) => (
    <div class="field">
      <label for={`runs-${name}`}>{label}</label>
      <select
        id={`runs-${name}`}
        value={filters[name]}
        onChange={(event) => onChange({ ...filters, [name]: event.currentTarget.value })}
      >
        <option value="">all</option>
        {values.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form class="filters" aria-label="Filter runs" onSubmit={(event) => event.preventDefault()}>
      {choice('suite', 'Suite', answer.filters.suites)}
      {choice('config', 'Configuration', answer.filters.configs)}
      {choice('branch', 'Branch', answer.filters.branches)}
    </form>
  );
}

/** Opens the picked runs' configurations side by side, oldest run first. */
function CompareConfigurations({ picked }: { picked: readonly number[] }) {
  const runs = [...picked].sort((a, b) => a - b).map(String);
  return (
    <form
      class="filters"
      aria-label="Compare configurations"
      onSubmit={(event) => {
        event.preventDefault();
        if (runs.length > 0) location.hash = href.configurations(runs);
      }}
    >
      <button type="submit" disabled={runs.length === 0}>
        Compare configurations
      </button>
      <span class="muted" aria-live="polite">
        {runs.length === 0
          ? `pick runs below (up to ${maxComparedRuns})`
          : `of ${runs.map((id) => `#${id}`).join(', ')}`}
      </span>
    </form>
  );
}

function RunsTable({
  answer,
  picked,
  onPick,
}: {
  answer: RunsAnswer;
  picked: readonly number[];
  onPick: (picked: readonly number[]) => void;
}) {
  if (!answer.runs_db.present)
    return (
      <p>
        No runs database at <code>{answer.runs_db.path}</code> yet: <code>calltape test</code>{' '}
        stores each run there.
      </p>
    );
  if (answer.runs.length === 0) return <p>No stored run matches these filters.</p>;
  return (
    <>
      <p class="muted">
        {answer.runs.length === answer.matched
          ? `${answer.matched} runs`
          : `The newest ${answer.runs.length} of ${answer.matched} runs`}{' '}
        in <code>{answer.runs_db.path}</code>
      </p>
      <CompareConfigurations picked={picked} />
      <div class="table-wrap">
        <table class="runs">
          <caption class="visually-hidden">Stored runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Suite</th>
              <th scope="col">Started</th>
              <th scope="col">Mode</th>
              <th scope="col">Configurations (model): pass rate, mean score</th>
              <th scope="col">Gates</th>
              <th scope="col">Duration</th>
              <th scope="col">Git</th>
              <th scope="col">Side by side</th>
            </tr>
          </thead>
          <tbody>
            {answer.runs.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                picked={picked.includes(run.id)}
                full={picked.length >= maxComparedRuns}
                onPick={(on) =>
                  onPick(on ? [...picked, run.id] : picked.filter((id) => id !== run.id))
                }
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function RunRow({
  run,
  picked,
  full,
  onPick,
}: {
  run: RunListing;
  picked: boolean;
  /** As many runs are picked as one table takes. */
  full: boolean;
  onPick: (on: boolean) => void;
}) {
  return (
    <tr>
      <th scope="row">
        <a href={href.run(run.id)}>#{run.id}</a>
      </th>
      <td>{run.suite}</td>
      <td>
        <time dateTime={run.started_at}>{when(run.started_at)}</time>
      </td>
      <td>{run.mode}</td>
      <td>
        <ul class="plain">
          {run.configs.map((config) => (
            <li key={config.name}>
              {config.name}
              {config.model !== null && <span class="muted"> ({config.model})</span>}:{' '}
              {percent(config.pass_rate)}, {config.mean_score.toFixed(3)}
              {config.unreliable > 0 && <span class="muted">, {config.unreliable} unreliable</span>}
            </li>
          ))}
        </ul>
      </td>
      <td>
        <span class={run.passed ? 'badge pass' : 'badge fail'}>
          {run.passed ? 'passed' : `failed (exit ${run.exit_code})`}
        </span>
      </td>
      <td>{duration(run.duration_ms)}</td>
      <td>
        {run.git_branch ?? ''}
        {run.git_commit !== null && <code class="muted"> {run.git_commit.slice(0, 8)}</code>}
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`Pick run #${run.id} to compare configurations`}
          checked={picked}
          disabled={!picked && full}
          onChange={(event) => onPick(event.currentTarget.checked)}
        />
      </td>
    </tr>
  );
}
