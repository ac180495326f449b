import type { ScoredRollout, TrajectoryTurn } from '@skillopt/contract';

/**
 * Size limits for trajectories in a prompt. A long tool loop can produce megabytes of transcript;
 * without caps one trajectory could crowd out the rest of the minibatch or overflow the optimizer's
 * context window.
 */
export interface TrajectoryRenderLimits {
  /** The most characters one rendered trajectory may take. */
  maxCharactersPerTrajectory: number;
  /** The most characters all trajectories of one prompt may take together (the skill is extra). */
  maxCharactersPerPrompt: number;
}

export const DEFAULT_TRAJECTORY_RENDER_LIMITS: Readonly<TrajectoryRenderLimits> = Object.freeze({
  maxCharactersPerTrajectory: 8_000,
  maxCharactersPerPrompt: 60_000,
});

/** Below this, a trajectory says too little to be worth a place in the prompt. */
const MIN_CHARACTERS_PER_TRAJECTORY = 600;
const SEPARATOR = '\n\n---\n\n';

export function truncationMarker(omitted: number): string {
  return `[... ${omitted} characters omitted ...]`;
}

/**
 * Shortens `text` to at most `maxCharacters` by cutting out its middle, which is marked. The start
 * (the task, the first moves) and the end (the final answer, the scorer's verdict) are what a
 * reader of a failed trajectory needs most.
 */
export function truncateMiddle(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  const markerLength = truncationMarker(text.length).length + 2;
  const keep = Math.max(0, maxCharacters - markerLength);
  const headLength = Math.ceil(keep * 0.6);
  const tailLength = keep - headLength;
  const omitted = text.length - headLength - tailLength;
  return `${text.slice(0, headLength)}\n${truncationMarker(omitted)}\n${tailLength > 0 ? text.slice(text.length - tailLength) : ''}`;
}

function formatScore(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '');
}

function renderTurn(turn: TrajectoryTurn): string {
  const label = turn.toolName === undefined ? turn.role : `${turn.role} ${turn.toolName}`;
  return `[${label}] ${turn.content}`;
}

/** One result as the optimizer reads it: header, verdict, answer, then the turns in order. */
export function renderTrajectory(result: ScoredRollout, number: number, maxCharacters: number): string {
  const lines = [
    `### Trajectory ${number} (id=${result.id}, task type=${result.taskType}, hard=${formatScore(result.hard)}, soft=${formatScore(result.soft)})`,
  ];
  if (result.trajectory?.failureReason) lines.push(`Failure reason: ${result.trajectory.failureReason}`);
  lines.push(`Final answer: ${result.prediction}`);
  if (result.reference !== undefined) lines.push(`Reference answer: ${result.reference}`);
  const turns = result.trajectory?.turns ?? [];
  if (turns.length > 0) {
    lines.push(`Turns (${turns.length}):`);
    for (const turn of turns) lines.push(renderTurn(turn));
  } else lines.push('Turns: none recorded');
  return truncateMiddle(lines.join('\n'), maxCharacters);
}

/**
 * All results of one prompt, numbered from 1, within both limits: the per-prompt budget is shared
 * evenly, and when even a minimal share per trajectory does not fit, the last ones are left out
 * and a line says how many.
 */
export function renderTrajectories(results: readonly ScoredRollout[], limits: TrajectoryRenderLimits = DEFAULT_TRAJECTORY_RENDER_LIMITS): string {
  if (results.length === 0) return '(none)';
  const capacity = Math.max(1, Math.floor(limits.maxCharactersPerPrompt / MIN_CHARACTERS_PER_TRAJECTORY));
  const shown = results.slice(0, Math.min(results.length, capacity));
  const share = Math.floor(limits.maxCharactersPerPrompt / shown.length) - SEPARATOR.length;
  const perTrajectory = Math.max(1, Math.min(limits.maxCharactersPerTrajectory, share));
  const blocks = shown.map((result, index) => renderTrajectory(result, index + 1, perTrajectory));
  const omitted = results.length - shown.length;
  if (omitted > 0) blocks.push(`[... ${omitted} more trajectories omitted: prompt size limit ...]`);
  return blocks.join(SEPARATOR);
}
