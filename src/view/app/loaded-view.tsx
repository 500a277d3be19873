import type { ComponentChildren } from 'preact';
import type { Loaded } from './api-client.js';

/** An answer's screen once it is there; a polite "loading" before, the server's message on failure. */
export function LoadedView<T>({
  loaded,
  what,
  children,
}: {
  loaded: Loaded<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.state === 'loading') return <p aria-live="polite">Loading {what}…</p>;
  if (loaded.state === 'failed')
    return (
      <p role="alert" class="problem">
        {loaded.message}
      </p>
    );
  return <>{children(loaded.data)}</>;
}

/** A case's status as a coloured badge (text, not colour alone, carries it). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge ${status}`}>{status}</span>;
}
