import { useEffect, useMemo, useState } from 'preact/hooks';

/** A screen of the app and what it shows; each is one shareable `#/…` address. */
export type Route =
  | { readonly screen: 'runs' }
  | { readonly screen: 'run'; readonly id: number }
  | {
      readonly screen: 'case';
      readonly id: number;
      readonly config: string;
      readonly testId: string;
    }
  | { readonly screen: 'compare'; readonly before: number; readonly after: number }
  /** Run configurations side by side: each reference a run id, or `id:configuration`. */
  | { readonly screen: 'configurations'; readonly runs: readonly string[] }
  | { readonly screen: 'rate' }
  | { readonly screen: 'review' }
  | { readonly screen: 'judges' }
  | { readonly screen: 'staging' }
  | { readonly screen: 'not-found'; readonly hash: string };

const runId = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route an address's hash names (`#/runs/12`, `#/compare/3/4`, …); the runs list when it names none. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  // A section's own parameters follow `?` (`#/rate?runs=a.sqlite`); the section reads them.
  const query = path.indexOf('?');
  const segments = (query === -1 ? path : path.slice(0, query)).split('/').map(decoded);
  const notFound = { screen: 'not-found', hash } as const;
  if (segments.includes(undefined)) return notFound;
  const [first = '', second, third, config, testId, ...rest] = segments as string[];
  const id = runId(second);
  switch (first) {
    case '':
      return { screen: 'runs' };
    case 'runs':
      if (second === undefined) return { screen: 'runs' };
      if (id === undefined) return notFound;
      if (third === undefined) return { screen: 'run', id };
      if (third === 'cases' && config !== undefined && testId !== undefined && rest.length === 0)
        return { screen: 'case', id, config, testId };
      return notFound;
    case 'compare': {
      const after = runId(third);
      return id !== undefined && after !== undefined && config === undefined
        ? { screen: 'compare', before: id, after }
        : notFound;
    }
    case 'configurations': {
      const runs = segments.slice(1) as string[];
      return runs.length > 0 && runs.every((item) => /^\d{1,15}(:.+)?$/s.test(item))
        ? { screen: 'configurations', runs }
        : notFound;
    }
    case 'rate':
    case 'review':
    case 'judges':
    case 'staging':
      return second === undefined ? { screen: first } : notFound;
    default:
      return notFound;
  }
}

/** The address of a route's screen. */
export const href = {
  run: (id: number): string => `#/runs/${id}`,
  case: (id: number, config: string, testId: string): string =>
    `#/runs/${id}/cases/${encodeURIComponent(config)}/${encodeURIComponent(testId)}`,
  compare: (before: number, after: number): string => `#/compare/${before}/${after}`,
  configurations: (runs: readonly string[]): string =>
    `#/configurations/${runs.map(encodeURIComponent).join('/')}`,
};

/** The current route, following the address as the user navigates (back and forward included). */
export function useRoute(): Route {
  // The address is the state: the same address keeps the same route, so nothing re-renders (or
  // moves focus) when it is read again and has not changed.
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const follow = (): void => setHash(location.hash);
    addEventListener('hashchange', follow);
    // The address may have changed between the first render and this subscription (a link
    // followed while the app was still starting): read it again, or that change is lost.
    follow();
    return () => removeEventListener('hashchange', follow);
  }, []);
  return useMemo(() => parseRoute(hash), [hash]);
}
