import { useEffect, useState } from 'preact/hooks';
import { fetchApi } from './api-client.js';
import { PassRateChart, type PassRates } from './tool-pass-rate-chart.js';
import type {
  Alert,
  CallVerdict,
  FeedEvent,
  SessionVerdict,
  StagingState,
} from './section-types.js';

/** Rows the calls table keeps; older ones leave as new ones arrive. */
const maxCalls = 200;
const maxSessions = 50;

/** What the section shows, grown by the state answer and then by the feed. */
interface Shown {
  readonly calls: readonly CallVerdict[];
  readonly sessions: readonly SessionVerdict[];
  readonly alerts: readonly Alert[];
  readonly policies: string;
}

const callKey = (call: CallVerdict): string => `${call.interactionId}#${call.callIndex}`;
const sessionKey = (session: SessionVerdict): string => `${session.sessionId}@${session.endedAt}`;
const time = (at: number): string => new Date(at).toLocaleTimeString();

function withCall(shown: Shown, call: CallVerdict): Shown {
  // A call scored while the state is read arrives both ways; the key shows it once.
  if (shown.calls.some((item) => callKey(item) === callKey(call))) return shown;
  return { ...shown, calls: [call, ...shown.calls].slice(0, maxCalls) };
}

function withSession(shown: Shown, session: SessionVerdict): Shown {
  if (
    session.verdict === 'pass' ||
    shown.sessions.some((item) => sessionKey(item) === sessionKey(session))
  )
    return shown;
  return { ...shown, sessions: [session, ...shown.sessions].slice(0, maxSessions) };
}

function applyEvent(shown: Shown, event: FeedEvent): Shown {
  switch (event.type) {
    case 'call.scored':
      return withCall(shown, event);
    case 'session.scored':
      return withSession(shown, event);
    case 'alert':
      return { ...shown, alerts: [event, ...shown.alerts] };
    case 'policies.reloaded':
      return { ...shown, policies: event.message };
    default:
      return shown;
  }
}

function passRatesOf(calls: readonly CallVerdict[]): PassRates {
  const rates = new Map<string, Map<number, { passed: number; failed: number }>>();
  for (const call of calls) {
    // An error is no verdict on the agent: the pass rates leave it out.
    if (call.verdict === 'error') continue;
    const minute = Math.floor(call.at / 60_000);
    const tool = rates.get(call.tool) ?? new Map<number, { passed: number; failed: number }>();
    rates.set(call.tool, tool);
    const bucket = tool.get(minute) ?? { passed: 0, failed: 0 };
    bucket[call.verdict === 'pass' ? 'passed' : 'failed'] += 1;
    tool.set(minute, bucket);
  }
  return rates;
}

/**
 * The proxy's shadow scoring, live: scored calls with their verdict and why, failing sessions
 * with their trajectory, alerts, the queue and a pass-rate chart. The feed (WebSocket) opens
 * first and its events wait until the state is read, so nothing scored in between is missed;
 * each reconnect reads the state again. Served by `calltape view` alone, it says how to get it.
 */
export function StagingScreen() {
  const [state, setState] = useState<StagingState | undefined>();
  const [shown, setShown] = useState<Shown>({ calls: [], sessions: [], alerts: [], policies: '' });
  const [status, setStatus] = useState<{ state: string; text: string }>({
    state: 'connecting',
    text: 'connecting',
  });
  const [tool, setTool] = useState('');
  const [verdict, setVerdict] = useState('');
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const load = async (): Promise<StagingState> => {
      const answer = await fetchApi<StagingState>('staging');
      setState(answer);
      if (answer.available)
        setShown((before) => {
          let next: Shown = {
            ...before,
            policies: answer.shadow
              ? `${answer.shadow.policies.length} policies`
              : 'shadow scoring is off (no policies file)',
            alerts: [...answer.alerts].reverse(),
          };
          for (const call of answer.calls) next = withCall(next, call);
          for (const session of answer.failingSessions) next = withSession(next, session);
          return next;
        });
      return answer;
    };
    const connect = (feed: string): void => {
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${scheme}://${location.host}${feed}`);
      let held: FeedEvent[] | undefined = [];
      socket.onopen = () => {
        load().then(
          () => {
            const waiting = held ?? [];
            held = undefined;
            setShown((before) => waiting.reduce(applyEvent, before));
            setNow(Date.now());
            setStatus({ state: 'live', text: 'live' });
          },
          (error: unknown) =>
            setStatus({ state: 'down', text: `cannot load: ${(error as Error).message}` }),
        );
      };
      socket.onclose = () => {
        if (closed) return;
        setStatus({ state: 'down', text: 'disconnected — retrying' });
        retry = setTimeout(() => connect(feed), 2000);
      };
      socket.onmessage = (message: MessageEvent<string>) => {
        const event = JSON.parse(message.data) as FeedEvent;
        if (held) held.push(event);
        else {
          setShown((before) => applyEvent(before, event));
          setNow(Date.now());
        }
      };
    };
    load().then(
      (answer) => {
        if (answer.available && !closed) connect(answer.feed);
      },
      (error: unknown) => setStatus({ state: 'down', text: (error as Error).message }),
    );
    const clock = setInterval(() => setNow(Date.now()), 30_000);
    return () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(clock);
      socket?.close();
    };
  }, []);

  if (state?.available === false)
    return (
      <section aria-labelledby="staging-title">
        <h1 id="staging-title">Staging</h1>
        <p id="staging-elsewhere">{state.how}</p>
      </section>
    );
  const visible = (call: CallVerdict): boolean =>
    (tool.trim() === '' || call.tool === tool.trim()) &&
    (verdict === '' || call.verdict === verdict);
  const shownCount = shown.calls.filter(visible).length;
  return (
    <section aria-labelledby="staging-title" class="staging">
      <h1 id="staging-title">Staging</h1>
      <p class="muted">
        The proxy's shadow scoring, live: every tool call scored off the response path.
      </p>
      <p>
        <span
          id="status"
          class={`badge ${status.state === 'live' ? 'pass' : 'error'}`}
          data-state={status.state}
          role="status"
        >
          {status.text}
        </span>{' '}
        <span id="policies" class="muted">
          {shown.policies}
        </span>{' '}
        ·{' '}
        {state?.available && (
          <>
            <span id="queue" class="muted">
              queue {state.queue.depth} · dropped {state.queue.dropped}
            </span>{' '}
            · <a href={state.metrics}>Prometheus metrics</a>
          </>
        )}
      </p>
      <h2>Pass rate per tool</h2>
      <PassRateChart rates={passRatesOf(shown.calls)} now={now} />
      <h2>Alerts</h2>
      <ul id="alerts">
        {shown.alerts.length === 0 && <li class="muted">none</li>}
        {shown.alerts.map((alert) => (
          <li key={`${alert.policy}@${alert.at}`}>
            {time(alert.at)} {alert.policy}: {(alert.passRate * 100).toFixed(1)}% of{' '}
            {alert.evaluated} passed (threshold {(alert.threshold * 100).toFixed(1)}%)
          </li>
        ))}
      </ul>
      <h2>Failing sessions</h2>
      <div id="sessions">
        {shown.sessions.length === 0 && <p class="muted">none</p>}
        {shown.sessions.map((session) => (
          <FailingSession key={sessionKey(session)} session={session} />
        ))}
      </div>
      <h2>Calls</h2>
      <form class="filters" aria-label="Filter calls" onSubmit={(event) => event.preventDefault()}>
        <label>
          Tool
          <input
            id="filter-tool"
            placeholder="any"
            value={tool}
            onInput={(event) => setTool(event.currentTarget.value)}
          />
        </label>
        <label>
          Verdict
          <select
            id="filter-verdict"
            value={verdict}
            onChange={(event) => setVerdict(event.currentTarget.value)}
          >
            <option value="">any</option>
            <option value="pass">pass</option>
            <option value="fail">fail</option>
            <option value="error">error (not scored)</option>
          </select>
        </label>
        <span class="muted" id="count">
          {shownCount} shown
        </span>
      </form>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              {['Time', 'Session', 'Model', 'Tool', 'Verdict', 'Score', 'Arguments', 'Why'].map(
                (head) => (
                  <th key={head} scope="col">
                    {head}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody id="calls">
            {shown.calls.map((call) => (
              <tr
                key={callKey(call)}
                hidden={!visible(call)}
                data-interaction={call.interactionId}
                data-tool={call.tool}
                data-verdict={call.verdict}
                data-call-index={call.callIndex}
              >
                <td>{time(call.at)}</td>
                <td>{call.sessionId}</td>
                <td>{call.model}</td>
                <td>{call.tool}</td>
                <td>
                  <span class={`badge ${call.verdict}`}>{call.verdict}</span>
                </td>
                <td>{call.score.toFixed(2)}</td>
                <td class="args mono">{call.arguments}</td>
                <td class="why">
                  {call.failures
                    .map((failure) => `${failure.policy}: ${failure.message}`)
                    .join('\n')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function FailingSession({ session }: { session: SessionVerdict }) {
  return (
    <div class="session" data-session={session.sessionId}>
      <div>
        <strong>{session.sessionId}</strong>{' '}
        <span class={`badge ${session.verdict}`}>{session.verdict}</span>
        <span class="muted">
          {' '}
          · {session.turns} turns, {session.calls} calls · {time(session.endedAt)}
        </span>
      </div>
      <div class="why">
        {session.failures.map((failure) => `${failure.policy}: ${failure.message}`).join('\n')}
      </div>
      <ol>
        {session.trajectory.map((call, index) => {
          // Where the tool ran: an MCP server, the provider itself (hosted), an MCP call the agent made unasked.
          const where = `${call.server ? ` on ${call.server}` : ''}${call.hosted ? ' (run by the provider)' : ''}${call.unasked ? ' (no model call asked for it)' : ''}`;
          return (
            <li
              key={index}
              data-server={call.server}
              data-hosted={call.hosted ? 'true' : undefined}
              data-unasked={call.unasked ? 'true' : undefined}
              data-outcome={call.outcome}
              class={call.verdict === 'fail' || call.outcome === 'failed' ? 'fail' : undefined}
            >
              {`turn ${call.turn}: ${call.tool}(${call.arguments})${where} — ${call.verdict}${call.failures.length > 0 ? `: ${call.failures.join('; ')}` : ''}${call.outcome === 'failed' ? ' · the tool failed' : ''}`}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
