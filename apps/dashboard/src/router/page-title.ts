import type { Route } from './hash-route.js';

const SITE = 'SkillOpt dashboard';

/** The document title of a route: the page first, the site last. */
export function pageTitle(route: Route): string {
  switch (route.page) {
    case 'runs':
      return `Runs · ${SITE}`;
    case 'run':
      return `Run ${route.runName} · ${SITE}`;
    case 'step':
      return `Step ${route.step} of run ${route.runName} · ${SITE}`;
    case 'diff':
      return `Skill diff ${route.from} → ${route.to} of run ${route.runName} · ${SITE}`;
    case 'not-found':
      return `No such page · ${SITE}`;
  }
}
