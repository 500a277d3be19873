import { useEffect, useState } from 'preact/hooks';

/** Where the app's data comes from: the server's API, or the JSON an exported file carries. */
const apiRoot = '/calltape/api/v1/';

/** An answer being fetched, fetched, or failed (with the server's message). */
export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly data: T }
  | { readonly state: 'failed'; readonly message: string };

/** What an exported file carries: the answers by API path, and the screen it opens on. */
interface Embedded {
  readonly start: string;
  readonly answers: Readonly<Record<string, unknown>>;
}

function embeddedData(): Embedded | undefined {
  const element = document.getElementById('calltape-data');
  return element?.textContent ? (JSON.parse(element.textContent) as Embedded) : undefined;
}

/** The answers an exported file carries; undefined when the app is served. */
export const embedded = embeddedData();

/** Fetches an API path (`runs?suite=…`) as JSON, with the server's error message on failure. */
export async function fetchApi<T>(path: string): Promise<T> {
  if (embedded) {
    if (Object.hasOwn(embedded.answers, path)) return embedded.answers[path] as T;
    const bare = path.split('?')[0] ?? path;
    if (bare === 'runs' && Object.hasOwn(embedded.answers, 'runs'))
      return embedded.answers['runs'] as T;
    throw new Error('This exported file holds one run; open calltape view for the rest.');
  }
  const response = await fetch(apiRoot + path, { credentials: 'same-origin' });
  const body = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
  return body;
}

/** An API answer for a component, fetched again when the path changes. */
export function useApi<T>(path: string): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    fetchApi<T>(path).then(
      (data) => {
        if (current) setLoaded({ state: 'ready', data });
      },
      (error: unknown) => {
        if (current) setLoaded({ state: 'failed', message: (error as Error).message });
      },
    );
    return () => {
      current = false;
    };
  }, [path]);
  return loaded;
}
