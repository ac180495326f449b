import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import { LEARNED_END_MARKER, LEARNED_START_MARKER, markersIn } from '@skillopt/optimizer';
import { locateLearnedBlock } from './learned-block-location.js';

export const LEARNED_BLOCK_HEADING = '## Rules learned from past sessions';
export const LEARNED_BLOCK_BANNER =
  '_SkillOpt Sleep keeps this section: each rule below passed a replay check on held-out tasks and was added only after you adopted it. Edit or remove rules freely; keep the two marker comments._';

const BULLET_PREFIX = '- ';

/**
 * The rules in the document's learned block, in order; [] when it has none. A rule is a line of
 * the block that starts with "- "; exactly that bullet prefix is removed and nothing else, so a
 * rule such as "--no-verify is forbidden" keeps its dashes (the original stripped every leading
 * dash and space, §9 item 14).
 */
export function readLearnedRules(document: string): string[] {
  const block = locateLearnedBlock(document);
  if (block === undefined) return [];
  return rulesInBlockText(block.inner);
}

/** The bullet lines of a block's text, without their "- " prefix or trailing whitespace. */
export function rulesInBlockText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.startsWith(BULLET_PREFIX))
    .map((line) => line.slice(BULLET_PREFIX.length).trimEnd())
    .filter((rule) => rule.trim() !== '');
}

/** The comparison key for "is this rule already there": case and runs of whitespace ignored. */
export function ruleKey(rule: string): string {
  return rule.trim().replace(/\s+/g, ' ').toLowerCase();
}

function invalidRule(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message });
}

function checkedRules(rules: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const rule of rules) {
    const trimmed = rule.trim();
    if (trimmed === '') throw invalidRule('a learned rule must not be empty');
    // One rule is one bullet line; a line break would turn the rest into text outside any bullet.
    if (/[\r\n]/.test(trimmed)) throw invalidRule(`a learned rule is one line: "${trimmed.slice(0, 80)}"`);
    const markers = markersIn(trimmed);
    if (markers.length > 0) throw invalidRule(`a learned rule must not contain the marker ${markers.join(', ')}`);
    const key = ruleKey(trimmed);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(trimmed);
  }
  return kept;
}

/** The whole block in our layout, from start marker through end marker (no surrounding newlines). */
export function renderLearnedBlock(rules: readonly string[]): string {
  const bullets = checkedRules(rules).map((rule) => `${BULLET_PREFIX}${rule}\n`);
  return `${LEARNED_START_MARKER}\n${LEARNED_BLOCK_HEADING}\n\n${LEARNED_BLOCK_BANNER}\n\n${bullets.join('')}${LEARNED_END_MARKER}`;
}

/**
 * The document with its learned block holding exactly `rules` (trimmed; a repeat of an earlier
 * rule, ignoring case and spacing, is dropped). The block is rewritten where it stands, in our
 * marker spelling even when it was the original's, and every byte outside it is kept; the
 * original instead removed the block, appended a new one and collapsed blank-line runs across the
 * whole document (§9 item 14). A document without a block gets one at its end, after one blank
 * line; with no rules to write it is returned as it is rather than given an empty block.
 */
export function writeLearnedRules(document: string, rules: readonly string[]): string {
  const block = locateLearnedBlock(document);
  if (block === undefined && rules.length === 0) return document;
  const rendered = renderLearnedBlock(rules);
  if (block !== undefined) return document.slice(0, block.start) + rendered + document.slice(block.end);
  if (document === '') return `${rendered}\n`;
  const separator = document.endsWith('\n\n') ? '' : document.endsWith('\n') ? '\n' : '\n\n';
  return `${document}${separator}${rendered}\n`;
}
