import { useEffect, useRef } from 'react';
import { Breadcrumbs } from './components/breadcrumbs.js';
import { DiffPage } from './pages/diff-page.js';
import { NotFoundView } from './pages/not-found-view.js';
import { RunPage } from './pages/run-page.js';
import { RunsPage } from './pages/runs-page.js';
import { StepPage } from './pages/step-page.js';
import { type Route, runsHref } from './router/hash-route.js';
import { pageTitle } from './router/page-title.js';
import { useHashRoute } from './router/use-hash-route.js';

/** The dashboard: a header with where the page is, and the page of the current route. */
export function App() {
  const route = useHashRoute();
  const main = useRef<HTMLElement>(null);
  const routeKey = JSON.stringify(route);
  const isFirstRoute = useRef(true);
  useEffect(() => {
    document.title = pageTitle(JSON.parse(routeKey) as Route);
    // After a navigation (not on the first load) the reader starts at the new page's top.
    if (isFirstRoute.current) {
      isFirstRoute.current = false;
      return;
    }
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [routeKey]);
  return (
    <>
      <header className="site-header">
        <p className="site-name">
          <a href={runsHref()}>SkillOpt dashboard</a>
        </p>
        <Breadcrumbs route={route} />
      </header>
      <main ref={main} tabIndex={-1}>
        <RoutePage key={routeKey} route={route} />
      </main>
    </>
  );
}

function RoutePage({ route }: { route: Route }) {
  switch (route.page) {
    case 'runs':
      return <RunsPage />;
    case 'run':
      return <RunPage runName={route.runName} />;
    case 'step':
      return <StepPage runName={route.runName} step={route.step} />;
    case 'diff':
      return <DiffPage runName={route.runName} from={route.from} to={route.to} />;
    case 'not-found':
      return <NotFoundView hash={route.hash} />;
  }
}
