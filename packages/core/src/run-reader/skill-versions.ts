import { readRunHistory, readRunState } from './run-reader.js';
import { diffLines, splitLines, type DiffLine } from './line-diff.js';
import { summariseVersion, type SkillVersionSummary } from './run-report.js';
import { readSkillTimeline, type SkillVersion } from './skill-timeline.js';

/** A skill version with its text (`GET /api/runs/:name/skills/:id`). */
export interface SkillVersionText extends SkillVersionSummary {
  text: string;
}

/** Two skill versions line by line (`GET /api/runs/:name/diff?from=…&to=…`). */
export interface SkillDiff {
  from: SkillVersionSummary;
  to: SkillVersionSummary;
  added: number;
  removed: number;
  /** Every line of both texts in order, each with its number in the old and the new text (1-based; null on the side it is not in). */
  lines: Array<DiffLine & { oldLine: number | null; newLine: number | null }>;
}

/** The run's skill versions, oldest first (see readSkillTimeline); none before anything was committed. */
export async function readSkillVersions(directory: string): Promise<SkillVersion[]> {
  const state = await readRunState(directory);
  if (state === undefined) return [];
  return readSkillTimeline(directory, await readRunHistory(directory, state.lastCompletedStep), state);
}

/** One version by its id (`skill_v0003`), or undefined when the run has none by that id. */
export async function readSkillVersion(directory: string, id: string): Promise<SkillVersionText | undefined> {
  const version = (await readSkillVersions(directory)).find((candidate) => summariseVersion(candidate).id === id);
  return version === undefined ? undefined : { ...summariseVersion(version), text: version.text };
}

/** The line diff from one version to another, or undefined when either id names no version of the run. */
export async function readSkillDiff(directory: string, fromId: string, toId: string): Promise<SkillDiff | undefined> {
  const versions = await readSkillVersions(directory);
  const find = (id: string) => versions.find((candidate) => summariseVersion(candidate).id === id);
  const from = find(fromId);
  const to = find(toId);
  if (from === undefined || to === undefined) return undefined;
  let oldLine = 0;
  let newLine = 0;
  const lines = diffLines(splitLines(from.text), splitLines(to.text)).map((line) => {
    if (line.kind !== 'added') oldLine += 1;
    if (line.kind !== 'removed') newLine += 1;
    return { ...line, oldLine: line.kind === 'added' ? null : oldLine, newLine: line.kind === 'removed' ? null : newLine };
  });
  return {
    from: summariseVersion(from),
    to: summariseVersion(to),
    added: lines.filter((line) => line.kind === 'added').length,
    removed: lines.filter((line) => line.kind === 'removed').length,
    lines,
  };
}
