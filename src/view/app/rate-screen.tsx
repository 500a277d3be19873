import { useEffect, useRef, useState } from 'preact/hooks';
import { fetchApi } from './api-client.js';
import { percent } from './format.js';
import { hashParams } from './hash-params.js';
import { postApi } from './post-api.js';
import { RunViewPanel } from './run-view-panel.js';
import type { RateSession, RunView } from './section-types.js';

/** The keys the rater takes, as the screen lists them. `n` is the note key, as in `calltape rate`. */
const keys = [
  { key: 'p', label: 'Pass' },
  { key: 'f', label: 'Fail' },
  { key: 's', label: 'Skip' },
  { key: 'n', label: 'Note' },
  { key: 'b', label: 'Back' },
] as const;

/**
 * The golden-set rater: one run at a time, rated with the keyboard. The server keeps the
 * session's rules (which run is next, what a key does, the ratings store), exactly those of the
 * terminal rater; the screen shows the run and posts each key, so each rating is stored the
 * moment it is given. A note is typed first and travels with the pass or fail that follows.
 */
export function RateScreen() {
  const params = hashParams();
  const [session, setSession] = useState<RateSession | undefined>();
  const [view, setView] = useState<RunView | undefined>();
  const [message, setMessage] = useState('');
  const [note, setNote] = useState<string | undefined>();
  // The note a key press sends: read from a ref, since a key pressed right after Enter can reach a
  // listener registered before the render that saw the note (effects run after paint).
  const noteNow = useRef<string | undefined>(undefined);
  const keepNote = (text: string | undefined): void => {
    noteNow.current = text;
    setNote(text);
  };
  const [typing, setTyping] = useState(false);
  const busy = useRef(false);
  const noteInput = useRef<HTMLInputElement>(null);
  const target = params.get('runs') ?? '';
  const set = params.get('set') ?? '';
  const rater = params.get('rater') ?? '';

  const show = async (next: RateSession): Promise<void> => {
    setSession(next);
    keepNote(undefined);
    setView(undefined);
    if (next.run === null) return;
    try {
      setView(await fetchApi<RunView>(`rate/view?${new URLSearchParams({ run: next.run })}`));
      setMessage('');
    } catch (error) {
      setMessage(`${next.run}: ${(error as Error).message} (skip it with s)`);
    }
  };

  useEffect(() => {
    const query = new URLSearchParams();
    if (target) query.set('runs', target);
    if (set) query.set('set', set);
    fetchApi<RateSession>(`rate?${query}`).then(show, (error: unknown) =>
      setMessage((error as Error).message),
    );
  }, [target, set]);

  const press = async (key: string): Promise<void> => {
    if (!session || busy.current) return;
    if (key === 'n') {
      if (session.run === null) return;
      setTyping(true);
      return;
    }
    busy.current = true;
    try {
      await show(
        await postApi<RateSession>('rate', {
          runs: session.target,
          set: session.set,
          run: session.run,
          key,
          ...(noteNow.current !== undefined ? { note: noteNow.current } : {}),
          ...(rater ? { rater } : {}),
        }),
      );
    } catch (error) {
      // Nothing moves on: the rating was not stored, and the screen says so.
      setMessage(`not stored: ${(error as Error).message}`);
    } finally {
      busy.current = false;
    }
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (
        event.target instanceof HTMLInputElement ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey
      )
        return;
      if (keys.some((entry) => entry.key === event.key)) {
        event.preventDefault();
        void press(event.key);
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });
  useEffect(() => {
    if (typing) noteInput.current?.focus();
  }, [typing]);

  const current = session?.runs.find((item) => item.run === session.run)?.rating;
  return (
    <section aria-labelledby="rate-title" class="rate" data-run={session?.run ?? ''}>
      <h1 id="rate-title">Rate runs</h1>
      <form
        class="filters"
        aria-label="What to rate"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const next = new URLSearchParams();
          for (const name of ['runs', 'set', 'rater']) {
            const value = form.get(name);
            if (typeof value === 'string' && value !== '') next.set(name, value);
          }
          location.hash = `#/rate?${next}`;
        }}
      >
        <label>
          Runs
          <input
            name="runs"
            size={36}
            placeholder="a cassette, or run:<id>"
            value={session?.target ?? target}
          />
        </label>
        <label>
          Set
          <input name="set" size={10} value={session?.set ?? set} />
        </label>
        <label>
          Rater
          <input name="rater" size={10} value={rater} />
        </label>
        <button type="submit">Open</button>
      </form>
      {session && (
        <p id="progress" aria-live="polite">
          [{Math.min(session.position + 1, session.runs.length)}/{session.runs.length}] rated{' '}
          {session.progress.rated}/{session.progress.total}, pass{' '}
          {percent(session.progress.passShare)} · set “{session.set}” in{' '}
          <code>{session.store}</code>
          {current && (
            <span id="this-rating" class={`badge ${current.rating}`}>
              this run: {current.rating}
              {current.note ? ` (${current.note})` : ''}
            </span>
          )}
        </p>
      )}
      {message && (
        <p role="alert" class="problem">
          {message}
        </p>
      )}
      {message && !session && (
        <p class="muted">
          Name what to rate under Runs: a cassette in <code>recordings/</code> (the one your suite
          records into), or a stored run as <code>run:&lt;id&gt;</code> (its id from Runs).
        </p>
      )}
      {session?.run === null && (
        <p id="done">
          All {session.runs.length} runs are rated or skipped in the set “{session.set}”:{' '}
          {session.progress.rated}/{session.progress.total} rated,{' '}
          {percent(session.progress.passShare)} pass. Press b to go back.
        </p>
      )}
      {view && <RunViewPanel view={view} />}
      <div class="keys" role="toolbar" aria-label="Rating keys">
        {keys.map((entry) => (
          <button
            key={entry.key}
            type="button"
            aria-keyshortcuts={entry.key}
            onClick={() => void press(entry.key)}
          >
            {entry.label} <kbd>{entry.key}</kbd>
          </button>
        ))}
        {typing ? (
          <label class="note-input">
            Note (Enter keeps it, Esc drops it)
            <input
              ref={noteInput}
              id="note-input"
              defaultValue={note ?? ''}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' && event.key !== 'Escape') return;
                event.preventDefault();
                if (event.key === 'Enter') keepNote(event.currentTarget.value.trim() || undefined);
                setTyping(false);
              }}
            />
          </label>
        ) : (
          <span id="note" class="muted">
            {note
              ? `note: ${note}`
              : 'p pass · f fail · s skip · n note (typed before p or f) · b back'}
          </span>
        )}
      </div>
    </section>
  );
}
