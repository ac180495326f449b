/**
 * Which sessions are recent enough to harvest: those that ended at or after the window's start.
 * The start is per project, since each project's checkpoint is its own: the explicit `--since` or
 * `--lookback` when given, else the project's checkpoint (the end of the last completed night),
 * else the default lookback. `earliestStart` is what a source may skip files by before opening
 * them: a file last written before it holds no session of the window.
 */
export interface TimeWindow {
  /** Epoch ms; undefined: no lower bound for this project. */
  startFor(project: string): number | undefined;
  /** The earliest start of any project in scope; undefined: some project has no lower bound. */
  readonly earliestStart: number | undefined;
}

export interface TimeWindowSettings {
  /** Epoch ms given by `--since` or derived from `--lookback`; overrides checkpoints. */
  explicitStart?: number | undefined;
  /** Checkpoints of this source, by project (epoch ms: sessions ending after it are new). */
  checkpoints?: ReadonlyMap<string, number>;
  /** The start for a project without a checkpoint; undefined: all history. */
  defaultStart?: number | undefined;
  /** The projects of the scope, or 'all' (any project may appear). */
  projects: readonly string[] | 'all';
}

/** A window with no lower bound: everything. */
export const ALL_TIME: TimeWindow = { startFor: () => undefined, earliestStart: undefined };

export function createTimeWindow(settings: TimeWindowSettings): TimeWindow {
  if (settings.explicitStart !== undefined) {
    const start = settings.explicitStart;
    return { startFor: () => start, earliestStart: start };
  }
  const checkpoints = settings.checkpoints ?? new Map<string, number>();
  // A checkpoint is the last moment a completed night covered: what ended after it is new.
  const startFor = (project: string) => {
    const checkpoint = checkpoints.get(project);
    return checkpoint !== undefined ? checkpoint + 1 : settings.defaultStart;
  };
  const starts =
    settings.projects === 'all' ? [settings.defaultStart, ...[...checkpoints.values()].map((checkpoint) => checkpoint + 1)] : settings.projects.map(startFor);
  const earliestStart = starts.some((start) => start === undefined) ? undefined : Math.min(...(starts as number[]));
  return { startFor, earliestStart };
}
