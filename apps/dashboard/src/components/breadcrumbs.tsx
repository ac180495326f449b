import { diffHref, type Route, runHref, runsHref, stepHref } from '../router/hash-route.js';

interface Crumb {
  label: string;
  href: string;
}

/** Where the page is: the runs, then the run, then the step or diff; the last one is the current page. */
export function Breadcrumbs({ route }: { route: Route }) {
  const crumbs = crumbsOf(route);
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.href}>
            <a href={crumb.href} {...(index === crumbs.length - 1 ? { 'aria-current': 'page' as const } : {})}>
              {crumb.label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function crumbsOf(route: Route): Crumb[] {
  const runs: Crumb = { label: 'Runs', href: runsHref() };
  switch (route.page) {
    case 'runs':
      return [runs];
    case 'run':
      return [runs, { label: route.runName, href: runHref(route.runName) }];
    case 'step':
      return [runs, { label: route.runName, href: runHref(route.runName) }, { label: `Step ${route.step}`, href: stepHref(route.runName, route.step) }];
    case 'diff':
      return [
        runs,
        { label: route.runName, href: runHref(route.runName) },
        { label: `Diff ${route.from} → ${route.to}`, href: diffHref(route.runName, route.from, route.to) },
      ];
    case 'not-found':
      return [runs, { label: 'No such page', href: route.hash || '#' }];
  }
}
