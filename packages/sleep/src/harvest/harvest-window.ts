import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import type { ProjectScope } from './project-scope.js';
import type { SourceId } from './session-record.js';
import type { TimeWindowSettings } from './time-window.js';
import { isoTime, toEpochMilliseconds } from './timestamps.js';

/** The window of a first night, or of a harvest with no checkpoint and no `--since`/`--lookback`. */
export const DEFAULT_LOOKBACK_HOURS = 72;

const UNIT_MILLISECONDS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--lookback` as milliseconds: `90m`, `72h`, `3d`, `2w`, a bare number of hours (the original's
 * `lookback_hours`), or `0` for all history (undefined).
 */
export function parseLookback(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mhdw]?)\s*$/i.exec(text);
  if (match === null)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `--lookback "${text}" is not a duration: write 90m, 72h, 3d or 2w (a bare number is hours; 0 reads all history).`,
    });
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase() || 'h';
  return amount === 0 ? undefined : amount * (UNIT_MILLISECONDS[unit] as number);
}

/** `--since` as epoch milliseconds: an ISO date or time (a time without a zone is UTC) or epoch seconds or milliseconds. */
export function parseSince(text: string): number {
  const time = toEpochMilliseconds(text);
  if (time === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `--since "${text}" is not a time: write an ISO date or time such as 2026-06-20 or 2026-06-20T09:00:00+02:00.`,
    });
  return time;
}

export interface HarvestWindowRequest {
  since?: string | undefined;
  lookback?: string | undefined;
  scope: ProjectScope;
  sources: readonly SourceId[];
  /** Where the nights' checkpoints are read from (never written by a harvest). */
  checkpoints?: CheckpointStore | undefined;
  now?: number;
}

export interface HarvestWindows {
  windowFor(source: SourceId): Omit<TimeWindowSettings, 'projects'>;
  /** In words, for a person: "since 2026-06-20T09:00:00.000Z (--since)". */
  description: string;
}

/**
 * The window of each source: `--since` or `--lookback` when given; else, per project, the
 * checkpoint its last completed night left, and the default lookback for a project that has none.
 */
export async function resolveHarvestWindows(request: HarvestWindowRequest): Promise<HarvestWindows> {
  const now = request.now ?? Date.now();
  if (request.since !== undefined && request.lookback !== undefined)
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: 'Give --since or --lookback, not both.' });
  if (request.since !== undefined) {
    const start = parseSince(request.since);
    return { windowFor: () => ({ explicitStart: start }), description: `since ${isoTime(start)} (--since)` };
  }
  if (request.lookback !== undefined) {
    const lookback = parseLookback(request.lookback);
    if (lookback === undefined) return { windowFor: () => ({}), description: 'all history (--lookback 0)' };
    const start = now - lookback;
    return { windowFor: () => ({ explicitStart: start }), description: `since ${isoTime(start)} (--lookback ${request.lookback})` };
  }
  const defaultStart = now - DEFAULT_LOOKBACK_HOURS * 3_600_000;
  const bySource = new Map<SourceId, Map<string, number>>();
  for (const source of request.sources) {
    const checkpoints = new Map<string, number>();
    if (request.checkpoints !== undefined) {
      if (request.scope.kind === 'all') for (const [project, time] of await request.checkpoints.readAll(source)) checkpoints.set(project, time);
      else
        for (const project of request.scope.projects) {
          const time = await request.checkpoints.read(project, source);
          if (time !== undefined) checkpoints.set(project, time);
        }
    }
    bySource.set(source, checkpoints);
  }
  const anyCheckpoint = [...bySource.values()].some((checkpoints) => checkpoints.size > 0);
  return {
    windowFor: (source) => ({ checkpoints: bySource.get(source) ?? new Map(), defaultStart }),
    description: anyCheckpoint
      ? `after each project's last completed night, else since ${isoTime(defaultStart)} (the last ${DEFAULT_LOOKBACK_HOURS} hours)`
      : `since ${isoTime(defaultStart)} (the last ${DEFAULT_LOOKBACK_HOURS} hours; no night has completed yet)`,
  };
}
