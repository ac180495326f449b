import type { Edit } from '@skillopt/contract';
import { findProtectedRegions, markersIn } from './protected-regions.js';

/**
 * Reading a revised copy of a skill (what an agent optimizer left in its `skill.md`) as edits to
 * the incumbent: the line difference, cut into changes of one markdown block each (a bullet, a
 * heading, a paragraph, a fenced block), so that the learning rate can keep some of them. A copy
 * rewritten from top to bottom yields one edit per block it replaced, removed or added, never one
 * wholesale replacement.
 */

/** One edit the revision makes, and where its change sits in the revised copy (for ordering). */
export interface RevisionChange {
  edit: Edit;
  /** The revised copy's line the change begins on; changes at one place are numbered in order. */
  position: number;
}

/** A change of the revision that no edit carries: it touched a protected region, or has no place to anchor. */
export interface RefusedChange {
  reason: string;
  /** The start of the text the change touched. */
  excerpt: string;
}

export interface SkillRevision {
  changes: RevisionChange[];
  refused: RefusedChange[];
}

interface LineRange {
  start: number;
  end: number;
}

interface Hunk {
  /** The incumbent's lines the hunk removes: `[start, end)`; empty for a pure insertion at `start`. */
  removed: LineRange;
  /** The revised copy's lines the hunk adds. */
  added: LineRange;
}

/** Above this many cells the difference is not searched line by line: the changed middle is one hunk. */
const MAXIMUM_DIFFERENCE_CELLS = 4_000_000;
/** Lines of context an ambiguous target may borrow from above it to become unique. */
const MAXIMUM_CONTEXT_LINES = 3;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s/;
const HEADING = /^#{1,6}\s/;
const FENCE = /^\s*(```|~~~)/;

/** The edits that turn `skill` into `revised`, and the changes refused. */
export function editsFromRevision(skill: string, revised: string): SkillRevision {
  const oldLines = normaliseLineEnds(skill).split('\n');
  const newLines = normaliseLineEnds(revised).split('\n');
  const protectedLines = protectedLineNumbers(normaliseLineEnds(skill), oldLines);
  const changes: RevisionChange[] = [];
  const refused: RefusedChange[] = [];
  const incumbent = oldLines.join('\n');
  for (const hunk of hunksOf(oldLines, newLines)) {
    const touchesProtected =
      rangeLines(hunk.removed).some((line) => protectedLines.has(line)) ||
      (hunk.removed.start === hunk.removed.end && protectedLines.has(hunk.removed.start - 1) && protectedLines.has(hunk.removed.start));
    const addedText = newLines.slice(hunk.added.start, hunk.added.end).join('\n');
    if (touchesProtected || markersIn(addedText).length > 0) {
      refused.push({
        reason: touchesProtected
          ? 'it changes a protected region (the slow-update or appendix block), which only their own stages write'
          : 'it adds a protection marker, which only the slow-update and appendix stages write',
        excerpt: excerptOf(oldLines, newLines, hunk),
      });
      continue;
    }
    const removedUnits = blocksOf(oldLines, hunk.removed);
    const addedUnits = blocksOf(newLines, hunk.added);
    const paired = Math.min(removedUnits.length, addedUnits.length);
    let order = 0;
    const record = (edit: Edit | RefusedChange) => {
      if ('op' in edit) changes.push({ edit, position: hunk.added.start + order / 1_000 });
      else refused.push(edit);
      order += 1;
    };
    for (let index = 0; index < paired; index += 1) {
      const before = textOf(oldLines, removedUnits[index] as LineRange);
      const after = textOf(newLines, addedUnits[index] as LineRange);
      if (before !== after) record(replacementOf(incumbent, oldLines, removedUnits[index] as LineRange, after));
    }
    for (const unit of removedUnits.slice(paired)) record(removalOf(incumbent, oldLines, unit));
    const insertions = addedUnits.slice(paired).map((unit) => textOf(newLines, unit));
    for (const inserted of insertions) record(insertionOf(incumbent, oldLines, hunk.removed.start, inserted, protectedLines));
  }
  return { changes, refused };
}

function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function rangeLines(range: LineRange): number[] {
  return Array.from({ length: range.end - range.start }, (_unused, index) => range.start + index);
}

function textOf(lines: readonly string[], range: LineRange): string {
  return lines.slice(range.start, range.end).join('\n');
}

/** The incumbent's line numbers that hold any part of a protected region. */
function protectedLineNumbers(skill: string, lines: readonly string[]): Set<number> {
  const regions = findProtectedRegions(skill);
  const protectedLines = new Set<number>();
  let offset = 0;
  lines.forEach((line, number) => {
    const lineEnd = offset + line.length;
    if (regions.some((region) => region.start <= lineEnd && region.end > offset)) protectedLines.add(number);
    offset = lineEnd + 1;
  });
  return protectedLines;
}

/** The runs of changed lines between two versions, by the longest common subsequence of their lines. */
function hunksOf(oldLines: readonly string[], newLines: readonly string[]): Hunk[] {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  )
    suffix += 1;
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
  const newMiddle = newLines.slice(prefix, newLines.length - suffix);
  if (oldMiddle.length === 0 && newMiddle.length === 0) return [];
  if (oldMiddle.length * newMiddle.length > MAXIMUM_DIFFERENCE_CELLS)
    return [{ removed: { start: prefix, end: prefix + oldMiddle.length }, added: { start: prefix, end: prefix + newMiddle.length } }];

  // common[i][j]: the longest common subsequence of oldMiddle[i..] and newMiddle[j..].
  const width = newMiddle.length + 1;
  const common = new Uint32Array((oldMiddle.length + 1) * width);
  for (let i = oldMiddle.length - 1; i >= 0; i -= 1)
    for (let j = newMiddle.length - 1; j >= 0; j -= 1)
      common[i * width + j] =
        oldMiddle[i] === newMiddle[j]
          ? (common[(i + 1) * width + j + 1] as number) + 1
          : Math.max(common[(i + 1) * width + j] as number, common[i * width + j + 1] as number);

  const hunks: Hunk[] = [];
  let open: Hunk | undefined;
  let i = 0;
  let j = 0;
  const close = () => {
    if (open !== undefined) hunks.push(open);
    open = undefined;
  };
  const opened = (): Hunk => {
    open ??= { removed: { start: prefix + i, end: prefix + i }, added: { start: prefix + j, end: prefix + j } };
    return open;
  };
  while (i < oldMiddle.length || j < newMiddle.length) {
    if (i < oldMiddle.length && j < newMiddle.length && oldMiddle[i] === newMiddle[j]) {
      close();
      i += 1;
      j += 1;
    } else if (j < newMiddle.length && (i === oldMiddle.length || (common[i * width + j + 1] as number) >= (common[(i + 1) * width + j] as number))) {
      opened().added.end = prefix + j + 1;
      j += 1;
    } else {
      opened().removed.end = prefix + i + 1;
      i += 1;
    }
  }
  close();
  return hunks;
}

/**
 * The markdown blocks of a range of lines: a heading, a list item with the lines that continue it
 * (deeper bullets included), a paragraph, or a fenced block, each without the blank lines around it.
 */
function blocksOf(lines: readonly string[], range: LineRange): LineRange[] {
  const blocks: LineRange[] = [];
  let current: LineRange | undefined;
  let currentIndent = 0;
  let inFence = false;
  const finish = () => {
    if (current !== undefined) blocks.push(current);
    current = undefined;
  };
  for (let number = range.start; number < range.end; number += 1) {
    const line = lines[number] as string;
    if (inFence) {
      (current as LineRange).end = number + 1;
      if (FENCE.test(line)) {
        inFence = false;
        finish();
      }
      continue;
    }
    if (line.trim() === '') {
      finish();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    const startsBlock =
      current === undefined ||
      HEADING.test(line) ||
      HEADING.test(lines[current.start] as string) ||
      FENCE.test(line) ||
      (item !== undefined && item !== null && (item[1] as string).length <= currentIndent);
    if (startsBlock) {
      finish();
      current = { start: number, end: number + 1 };
      currentIndent = item ? (item[1] as string).length : (/^\s*/.exec(line)?.[0].length ?? 0);
      if (FENCE.test(line)) inFence = true;
    } else (current as LineRange).end = number + 1;
  }
  finish();
  return blocks;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) count += 1;
  return count;
}

/**
 * The unit's text with as few lines from above it as make it occur once in the incumbent; the
 * borrowed lines are returned so an edit can keep them. Undefined when no such context exists.
 */
function uniqueTarget(incumbent: string, lines: readonly string[], unit: LineRange): { target: string; context: string } | undefined {
  for (let borrowed = 0; borrowed <= MAXIMUM_CONTEXT_LINES && unit.start - borrowed >= 0; borrowed += 1) {
    const target = textOf(lines, { start: unit.start - borrowed, end: unit.end });
    if (occurrences(incumbent, target) === 1) return { target, context: textOf(lines, { start: unit.start - borrowed, end: unit.start }) };
  }
  return undefined;
}

function ambiguous(text: string): RefusedChange {
  return { reason: 'the text it changes occurs more than once in the skill, even with the lines above it', excerpt: excerpt(text) };
}

function replacementOf(incumbent: string, lines: readonly string[], unit: LineRange, content: string): Edit | RefusedChange {
  const found = uniqueTarget(incumbent, lines, unit);
  if (found === undefined) return ambiguous(textOf(lines, unit));
  return { op: 'replace', target: found.target, content: found.context === '' ? content : `${found.context}\n${content}`, rationale: '', support: 0 };
}

function removalOf(incumbent: string, lines: readonly string[], unit: LineRange): Edit | RefusedChange {
  const found = uniqueTarget(incumbent, lines, unit);
  if (found === undefined) return ambiguous(textOf(lines, unit));
  // A removal that borrowed context keeps that context: it is a replace by the context alone.
  if (found.context.trim() === '') return { op: 'delete', target: found.target, rationale: '', support: 0 };
  return { op: 'replace', target: found.target, content: found.context, rationale: '', support: 0 };
}

/**
 * New text at line `at` of the incumbent: after the nearest non-blank line above it (with context
 * until that anchor is unique), at the end of the body when nothing follows or the line above ends
 * a protected block (an edit may not anchor on one), or before the first line when it opens the
 * document.
 */
function insertionOf(incumbent: string, lines: readonly string[], at: number, content: string, protectedLines: ReadonlySet<number>): Edit | RefusedChange {
  let anchor = at - 1;
  while (anchor >= 0 && (lines[anchor] as string).trim() === '') anchor -= 1;
  const followed = lines.slice(at).some((line) => line.trim() !== '');
  if (anchor >= 0 && protectedLines.has(anchor)) return { op: 'append', content, rationale: '', support: 0 };
  if (anchor >= 0) {
    const found = uniqueTarget(incumbent, lines, { start: anchor, end: anchor + 1 });
    if (found !== undefined) return { op: 'insert_after', target: found.target, content, rationale: '', support: 0 };
    if (!followed) return { op: 'append', content, rationale: '', support: 0 };
    return { reason: 'the line it follows occurs more than once in the skill, so it has no unique place', excerpt: excerpt(content) };
  }
  if (!followed) return { op: 'append', content, rationale: '', support: 0 };
  const first = lines.findIndex((line) => line.trim() !== '');
  const found = uniqueTarget(incumbent, lines, { start: first, end: first + 1 });
  if (found === undefined) return { reason: 'the first line of the skill occurs more than once, so it has no unique place', excerpt: excerpt(content) };
  return { op: 'replace', target: found.target, content: `${content}\n${found.target}`, rationale: '', support: 0 };
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function excerptOf(oldLines: readonly string[], newLines: readonly string[], hunk: Hunk): string {
  const removed = textOf(oldLines, hunk.removed);
  return excerpt(removed.trim() === '' ? textOf(newLines, hunk.added) : removed);
}
