import { useEffect, useState } from 'preact/hooks';

/** A screen of the app and what it shows; each is one shareable `#/…` address. */
export type Route =
  | { readonly screen: 'runs' }
  | { readonly screen: 'rate' }
  | { readonly screen: 'review' }
  | { readonly screen: 'judges' }
  | { readonly screen: 'staging' }
  | { readonly screen: 'not-found'; readonly hash: string };

/** The route an address's hash names (`#/runs`, `#/rate`, …); the runs list when it names none. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  // A section's own parameters follow `?` (`#/rate?runs=a.sqlite`); the section reads them.
  const [first = ''] = path.split(/[/?]/);
  switch (first) {
    case '':
    case 'runs':
      return { screen: 'runs' };
    case 'rate':
    case 'review':
    case 'judges':
    case 'staging':
      return { screen: first };
    default:
      return { screen: 'not-found', hash };
  }
}

/** The current route, following the address as the user navigates (back and forward included). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
