// The page's routes live in the URL's hash, so the server serves one HTML document for all of them:
// `#/` the runs, `#/runs/<name>` a run, `#/runs/<name>/steps/<n>` a step,
// `#/runs/<name>/diff?from=<id>&to=<id>` a skill diff. Names are URL-encoded as one segment.

export type Route =
  | { page: 'runs' }
  | { page: 'run'; runName: string }
  | { page: 'step'; runName: string; step: number }
  | { page: 'diff'; runName: string; from: string; to: string }
  | { page: 'not-found'; hash: string };

/** The route a location hash (`#/runs/demo`, with or without the `#`) names. */
export function parseHashRoute(hash: string): Route {
  const withoutMark = hash.startsWith('#') ? hash.slice(1) : hash;
  const queryStart = withoutMark.indexOf('?');
  const pathPart = queryStart === -1 ? withoutMark : withoutMark.slice(0, queryStart);
  const query = new URLSearchParams(queryStart === -1 ? '' : withoutMark.slice(queryStart + 1));
  const segments = pathPart.split('/').filter((segment) => segment !== '');
  const decoded = segments.map(decodeSegment);
  const notFound: Route = { page: 'not-found', hash };
  if (decoded.includes(undefined)) return notFound;
  const [first, runName, third, fourth, ...rest] = decoded as string[];
  if (first === undefined) return { page: 'runs' };
  if (first !== 'runs' || runName === undefined || runName === '') return notFound;
  if (third === undefined) return { page: 'run', runName };
  if (third === 'steps' && fourth !== undefined && rest.length === 0 && /^[1-9][0-9]*$/.test(fourth)) return { page: 'step', runName, step: Number(fourth) };
  if (third === 'diff' && fourth === undefined) {
    const from = query.get('from');
    const to = query.get('to');
    if (from && to) return { page: 'diff', runName, from, to };
  }
  return notFound;
}

export function runsHref(): string {
  return '#/';
}

export function runHref(runName: string): string {
  return `#/runs/${encodeURIComponent(runName)}`;
}

export function stepHref(runName: string, step: number): string {
  return `${runHref(runName)}/steps/${step}`;
}

export function diffHref(runName: string, from: string, to: string): string {
  return `${runHref(runName)}/diff?${new URLSearchParams({ from, to }).toString()}`;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
