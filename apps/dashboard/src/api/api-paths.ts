// The API's URLs, relative to the page: the server that serves the page serves /api beside it.

export function runsPath(): string {
  return 'api/runs';
}

export function runPath(runName: string): string {
  return `api/runs/${encodeURIComponent(runName)}`;
}

export function stepPath(runName: string, step: number): string {
  return `${runPath(runName)}/steps/${step}`;
}

export function diffPath(runName: string, from: string, to: string): string {
  return `${runPath(runName)}/diff?${new URLSearchParams({ from, to }).toString()}`;
}

/** Every event of one run, then the new ones as they are written (server-sent events). */
export function runEventsPath(runName: string): string {
  return `${runPath(runName)}/events`;
}

/** `runs-changed` whenever a run appears, disappears or changes (server-sent events). */
export function runsEventsPath(): string {
  return 'api/events';
}
