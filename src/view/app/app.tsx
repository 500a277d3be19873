import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useRoute, type Route } from './router.js';
import { RunsScreen } from './runs-screen.js';
import { RateScreen } from './rate-screen.js';
import { ReviewScreen } from './review-screen.js';
import { JudgesScreen } from './judges-screen.js';
import { StagingScreen } from './staging-screen.js';
import './sections.css';
import { RunScreen } from './run-screen.js';
import { CaseScreen } from './case-screen.js';
import { CompareScreen } from './compare-screen.js';
import { ConfigurationsScreen } from './configurations-screen.js';

/** The app's sections, in the order the header lists them. */
const sections = [
  { screen: 'runs', label: 'Runs', href: '#/runs' },
  { screen: 'rate', label: 'Rate', href: '#/rate' },
  { screen: 'review', label: 'Review', href: '#/review' },
  { screen: 'judges', label: 'Judges', href: '#/judges' },
  { screen: 'staging', label: 'Staging', href: '#/staging' },
] as const;

/** The section a route belongs to (a run or a case is in Runs). */
function sectionOf(route: Route): string {
  switch (route.screen) {
    case 'not-found':
      return '';
    case 'run':
    case 'case':
    case 'compare':
    case 'configurations':
      return 'runs';
    default:
      return route.screen;
  }
}

/** The frame: header with the sections, and the screen the address names. */
export function App() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // A new screen is announced by moving focus to it, as a page load would (the load itself leaves focus alone).
  useEffect(() => {
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [route]);
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <span class="brand">calltape view</span>
        <nav aria-label="Sections">
          <ul>
            {sections.map((section) => (
              <li key={section.screen}>
                <a
                  href={section.href}
                  aria-current={sectionOf(route) === section.screen ? 'page' : undefined}
                >
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Screen route={route} />
      </main>
    </>
  );
}

function Screen({ route }: { route: Route }): ComponentChildren {
  switch (route.screen) {
    case 'runs':
      return <RunsScreen />;
    case 'run':
      return <RunScreen id={route.id} />;
    case 'case':
      return <CaseScreen id={route.id} config={route.config} testId={route.testId} />;
    case 'compare':
      return <CompareScreen before={route.before} after={route.after} />;
    case 'configurations':
      return <ConfigurationsScreen runs={route.runs} />;
    case 'rate':
      return <RateScreen />;
    case 'review':
      return <ReviewScreen />;
    case 'judges':
      return <JudgesScreen />;
    case 'staging':
      return <StagingScreen />;
    case 'not-found':
      return (
        <section>
          <h1>Not found</h1>
          <p>
            Nothing is at <code>{route.hash}</code>. <a href="#/runs">Back to the runs</a>.
          </p>
        </section>
      );
  }
}
