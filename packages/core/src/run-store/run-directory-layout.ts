import path from 'node:path';

/**
 * Where each file of a run directory lives. Paths handed out for storing in JSON are relative to
 * the run directory with forward slashes, so a run directory that is moved, copied to another
 * machine or mounted elsewhere still resumes (upstream stored absolute paths: weak spot 17).
 */
export const RUN_FILES = {
  identity: 'run.json',
  config: 'config.json',
  runtimeState: 'runtime_state.json',
  history: 'history.jsonl',
  summary: 'summary.json',
  bestSkill: 'best_skill.md',
  events: 'events.jsonl',
  ledger: 'ledger.jsonl',
  skillsDirectory: 'skills',
  stepsDirectory: 'steps',
  rolloutsDirectory: 'rollouts',
  stepRecord: 'step_record.json',
} as const;

/**
 * The format of a run directory, kept in runtime_state.json as `formatVersion`. Format 2 made
 * every file that grows with the run append-only JSON lines (history.jsonl, ledger.jsonl with a
 * line at the start and the end of each call); format 1 (SkillOpt 0.1) rewrote history.json and
 * ledger.json whole at every step. Readers read both; only format 2 resumes.
 */
export const RUN_DIRECTORY_FORMAT = 2 as const;

/** The files of format 1 that format 2 replaced, for readers of older run directories. */
export const FORMAT_1_RUN_FILES = { history: 'history.json', ledger: 'ledger.json' } as const;

/** The epoch-end stages that keep their own directory per epoch. */
export const EPOCH_ARTIFACT_KINDS = ['slow_update', 'meta_skill'] as const;
export type EpochArtifactKind = (typeof EPOCH_ARTIFACT_KINDS)[number];

/** `skills/skill_v0003.md`: the current skill after global step 3 (`v0000` is the initial skill). */
export function skillVersionPath(step: number): string {
  requireStepNumber('skill version', step, 0);
  return `${RUN_FILES.skillsDirectory}/skill_v${pad(step, 4)}.md`;
}

/** `steps/step_0003`. */
export function stepDirectoryPath(step: number): string {
  requireStepNumber('step', step, 1);
  return `${RUN_FILES.stepsDirectory}/step_${pad(step, 4)}`;
}

/** `slow_update/epoch_02`, `meta_skill/epoch_02`. */
export function epochDirectoryPath(kind: EpochArtifactKind, epoch: number): string {
  if (!EPOCH_ARTIFACT_KINDS.includes(kind)) throw new TypeError(`Unknown epoch artifact kind ${String(kind)}; expected ${EPOCH_ARTIFACT_KINDS.join(' or ')}`);
  requireStepNumber('epoch', epoch, 1);
  return `${kind}/epoch_${pad(epoch, 2)}`;
}

/**
 * Checks a relative artifact path supplied by a caller (`ranked_edits.json`,
 * `patches/minibatch_fail_000.json`) and returns it with forward slashes. It must stay inside its
 * directory: absolute paths, `..` segments and empty segments are refused.
 */
export function checkedRelativePath(relativePath: string, what = 'artifact name'): string {
  const normalised = relativePath.replace(/\\/g, '/');
  const segments = normalised.split('/');
  if (
    normalised === '' ||
    path.isAbsolute(relativePath) ||
    /^[a-zA-Z]:/.test(normalised) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..')
  )
    throw new TypeError(`Invalid ${what} ${JSON.stringify(relativePath)}: it must be a relative path that stays inside its directory`);
  return normalised;
}

/** The absolute path of a run-relative path. */
export function resolveInRun(runDirectory: string, relativePath: string): string {
  return path.join(runDirectory, ...checkedRelativePath(relativePath, 'run-relative path').split('/'));
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function requireStepNumber(what: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum) throw new TypeError(`A ${what} number must be a whole number of at least ${minimum}, got ${value}`);
}
