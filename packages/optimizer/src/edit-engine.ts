import type { Edit } from '@skillopt/contract';
import { findProtectedRegions, isInsideProtectedRegion, markersIn, overlapsProtectedRegion, type ProtectedRegion } from './protected-regions.js';

/**
 * What happened to one edit:
 * - `applied`   — the skill changed as the edit asked;
 * - `unmatched` — its target does not occur in the skill (never turned into an append);
 * - `ambiguous` — its target occurs more than once, so which one was meant is unknown;
 * - `protected` — a match, or the place new text would go, touches a protected region;
 * - `invalid`   — the edit cannot be applied as written (no target, empty content, marker strings
 *   in the content, an unknown operation).
 */
export const EDIT_APPLICATION_STATUSES = ['applied', 'unmatched', 'ambiguous', 'protected', 'invalid'] as const;
export type EditApplicationStatus = (typeof EDIT_APPLICATION_STATUSES)[number];

export interface EditApplicationReport {
  /** The edit's position in the list given to `applyEdits` (0-based). */
  index: number;
  edit: Edit;
  status: EditApplicationStatus;
  /** Why, in words a reader of the step record understands. */
  reason: string;
}

export interface EditApplicationResult {
  /** The skill after every applicable edit, in order. */
  skill: string;
  /** One row per edit, in the order given. */
  reports: EditApplicationReport[];
  appliedCount: number;
}

interface SingleEditOutcome {
  skill: string;
  status: EditApplicationStatus;
  reason: string;
}

/**
 * Applies edits one after another, each to the document the previous ones produced (an earlier
 * replace can remove a later edit's target; that later edit is then reported as unmatched).
 *
 * The engine works on whole lines wherever a target does: it never joins two lines, never leaves
 * an empty line where a line was deleted, and inserts after the whole line an anchor ends on.
 */
export function applyEdits(skill: string, edits: readonly Edit[]): EditApplicationResult {
  let current = skill;
  const reports: EditApplicationReport[] = [];
  let appliedCount = 0;
  edits.forEach((edit, index) => {
    const outcome = applyOneEdit(current, edit);
    current = outcome.skill;
    if (outcome.status === 'applied') appliedCount += 1;
    reports.push({ index, edit, status: outcome.status, reason: outcome.reason });
  });
  return { skill: current, reports, appliedCount };
}

/**
 * The content of an edit as it will be written: surrounding blank lines and trailing whitespace
 * removed (they would create stray blank lines), the first line's indentation kept (it is
 * meaningful in markdown: a nested bullet, a code block).
 */
export function normaliseEditContent(content: string): string {
  return content.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
}

function unchanged(skill: string, status: EditApplicationStatus, reason: string): SingleEditOutcome {
  return { skill, status, reason };
}

function allOccurrences(text: string, target: string): number[] {
  const positions: number[] = [];
  // Overlapping occurrences count too: "aa" occurs twice in "aaa", and either could be meant.
  for (let index = text.indexOf(target); index !== -1; index = text.indexOf(target, index + 1)) positions.push(index);
  return positions;
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
}

type TargetLookup = { kind: 'found'; start: number; end: number; regions: ProtectedRegion[] } | { kind: 'refused'; outcome: SingleEditOutcome };

function locateTarget(skill: string, target: string | undefined, op: string): TargetLookup {
  if (target === undefined || target === '') {
    return { kind: 'refused', outcome: unchanged(skill, 'invalid', `an ${op} edit needs a non-empty target`) };
  }
  const occurrences = allOccurrences(skill, target);
  if (occurrences.length === 0) {
    return { kind: 'refused', outcome: unchanged(skill, 'unmatched', `target "${preview(target)}" does not occur in the skill`) };
  }
  const regions = findProtectedRegions(skill);
  // Every match is checked over its whole span: a target that starts in the body and runs into a
  // protected block would otherwise delete or split its markers.
  const protectedMatches = occurrences.filter((start) => overlapsProtectedRegion(regions, start, start + target.length));
  if (protectedMatches.length > 0) {
    return {
      kind: 'refused',
      outcome: unchanged(
        skill,
        'protected',
        `target "${preview(target)}" overlaps a protected region (${protectedMatches.length} of ${occurrences.length} matches)`,
      ),
    };
  }
  if (occurrences.length > 1) {
    return {
      kind: 'refused',
      outcome: unchanged(skill, 'ambiguous', `target "${preview(target)}" occurs ${occurrences.length} times; it must identify one place`),
    };
  }
  const start = occurrences[0] as number;
  return { kind: 'found', start, end: start + target.length, regions };
}

function applyOneEdit(skill: string, edit: Edit): SingleEditOutcome {
  const op: string = edit.op;
  if (op !== 'append' && op !== 'insert_after' && op !== 'replace' && op !== 'delete') {
    return unchanged(skill, 'invalid', `unknown operation "${op}"`);
  }
  const content = normaliseEditContent(edit.content ?? '');
  // Marker strings in new text would create or break a protected block; only the slow-update and
  // appendix writers may do that, so such an edit is refused rather than silently rewritten.
  const markers = markersIn(edit.content ?? '');
  if (op !== 'delete' && markers.length > 0) {
    return unchanged(skill, 'invalid', `content contains the protection marker ${markers.join(', ')}`);
  }
  if (op !== 'delete' && content === '') {
    return unchanged(skill, 'invalid', op === 'replace' ? 'replace with empty content; a removal is a delete edit' : `an ${op} edit needs content`);
  }
  switch (op) {
    case 'append':
      return appendContent(skill, content);
    case 'insert_after':
      return insertAfter(skill, edit.target, content);
    case 'replace':
      return replaceTarget(skill, edit.target, content);
    case 'delete':
      return deleteTarget(skill, edit.target);
  }
}

function appendContent(skill: string, content: string): SingleEditOutcome {
  const firstRegion = findProtectedRegions(skill)[0];
  if (firstRegion !== undefined) {
    // New rules belong to the body, which ends where the first protected block begins.
    const body = skill.slice(0, firstRegion.start).replace(/\s+$/, '');
    const rest = skill.slice(firstRegion.start);
    return {
      skill: `${body === '' ? '' : `${body}\n\n`}${content}\n\n${rest}`,
      status: 'applied',
      reason: 'appended at the end of the body, before the protected regions',
    };
  }
  const body = skill.replace(/\s+$/, '');
  return { skill: `${body === '' ? '' : `${body}\n\n`}${content}\n`, status: 'applied', reason: 'appended at the end' };
}

function insertAfter(skill: string, target: string | undefined, content: string): SingleEditOutcome {
  const lookup = locateTarget(skill, target, 'insert_after');
  if (lookup.kind === 'refused') return lookup.outcome;
  const { end, regions } = lookup;
  // The new text starts on the line after the one the anchor ends on.
  let insertionPoint: number;
  let needsLineBreakFirst = false;
  if (skill[end - 1] === '\n') insertionPoint = end;
  else {
    const lineBreak = skill.indexOf('\n', end);
    if (lineBreak === -1) {
      insertionPoint = skill.length;
      needsLineBreakFirst = true;
    } else insertionPoint = lineBreak + 1;
  }
  if (isInsideProtectedRegion(regions, insertionPoint)) {
    return unchanged(skill, 'protected', 'the line after the anchor lies inside a protected region');
  }
  const inserted = `${needsLineBreakFirst ? '\n' : ''}${content}\n`;
  return {
    skill: skill.slice(0, insertionPoint) + inserted + skill.slice(insertionPoint),
    status: 'applied',
    reason: 'inserted on the line after the anchor',
  };
}

function replaceTarget(skill: string, target: string | undefined, content: string): SingleEditOutcome {
  const lookup = locateTarget(skill, target, 'replace');
  if (lookup.kind === 'refused') return lookup.outcome;
  const matched = skill.slice(lookup.start, lookup.end);
  // A target that includes its line breaks keeps them: replacing "- rule\n" with "- better" must
  // not join "- better" onto the next line.
  const leadingBreaks = /^(?:\r?\n)+/.exec(matched)?.[0] ?? '';
  const trailingBreaks = /(?:\r?\n)+$/.exec(matched)?.[0] ?? '';
  const replacement = leadingBreaks + content + trailingBreaks;
  return { skill: skill.slice(0, lookup.start) + replacement + skill.slice(lookup.end), status: 'applied', reason: 'replaced' };
}

function deleteTarget(skill: string, target: string | undefined): SingleEditOutcome {
  const lookup = locateTarget(skill, target, 'delete');
  if (lookup.kind === 'refused') return lookup.outcome;
  let { start, end } = lookup;
  const startsAtLineStart = start === 0 || skill[start - 1] === '\n';
  const endsWithLineBreak = skill[end - 1] === '\n';
  const endsAtLineEnd = end === skill.length || skill[end] === '\n' || endsWithLineBreak;
  // Deleting whole lines removes their line break too, so no empty line is left behind.
  if (startsAtLineStart && endsAtLineEnd && !endsWithLineBreak) {
    if (skill[end] === '\n') end += 1;
    else if (start > 0) start -= 1;
  }
  const joined = skill.slice(0, start) + skill.slice(end);
  return { skill: tidyBlankLinesAt(joined, start), status: 'applied', reason: 'deleted' };
}

/**
 * Removes blank lines a deletion created at `position` (the join point): more than one blank line
 * in a row becomes one, and blank lines left at the very start or end of the document go. The rest
 * of the document is left byte for byte as it was.
 */
function tidyBlankLinesAt(text: string, position: number): string {
  let runStart = Math.min(position, text.length);
  while (runStart > 0 && text[runStart - 1] === '\n') runStart -= 1;
  let runEnd = Math.min(position, text.length);
  while (runEnd < text.length && text[runEnd] === '\n') runEnd += 1;
  const runLength = runEnd - runStart;
  if (runLength === 0) return text;
  if (runStart === 0) return text.slice(runEnd);
  if (runEnd === text.length) return `${text.slice(0, runStart)}\n`;
  if (runLength >= 3) return `${text.slice(0, runStart)}\n\n${text.slice(runEnd)}`;
  return text;
}
