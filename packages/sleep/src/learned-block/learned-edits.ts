import type { Edit } from '@skillopt/contract';
import { applyEdits, type EditApplicationReport, type EditApplicationStatus } from '@skillopt/optimizer';
import { readLearnedRules, ruleKey, rulesInBlockText, writeLearnedRules } from './learned-rules.js';

export interface LearnedEditsResult {
  /** The document after every applicable edit; the same string when none applied. */
  document: string;
  /** One row per edit, in the order given; `edit` is the edit as it was given. */
  reports: EditApplicationReport[];
  appliedCount: number;
}

const BULLET_PREFIX = '- ';

type MappedEdit = { kind: 'engine'; edit: Edit } | { kind: 'refused'; status: EditApplicationStatus; reason: string };

function asBullet(content: string): string {
  const trimmed = content.trim();
  // Content already written as a bullet keeps that one prefix; anything else is the rule itself,
  // verbatim, so "--no-verify" stays "--no-verify".
  return trimmed.startsWith(BULLET_PREFIX) ? trimmed : `${BULLET_PREFIX}${trimmed}`;
}

function occurrenceCount(text: string, target: string): { count: number; first: number } {
  let count = 0;
  const first = text.indexOf(target);
  for (let index = first; index !== -1; index = text.indexOf(target, index + 1)) count += 1;
  return { count, first };
}

/**
 * The anchor widened to the whole bullet line it falls in (with its line break), so the engine
 * deletes or replaces the rule rather than the anchor's characters. Only an anchor that occurs
 * exactly once is widened; otherwise the engine sees it as given and reports it unmatched or
 * ambiguous. The original instead hit every rule containing the anchor, so the anchor "e"
 * deleted all rules (§9 item 14).
 */
function widenedToLine(blockText: string, anchor: string): string {
  const { count, first } = occurrenceCount(blockText, anchor);
  if (count !== 1) return anchor;
  const lineStart = blockText.lastIndexOf('\n', first - 1) + 1;
  const lineEnd = blockText.indexOf('\n', first + anchor.length);
  return blockText.slice(lineStart, lineEnd === -1 ? blockText.length : lineEnd + 1);
}

function mapEdit(blockText: string, edit: Edit): MappedEdit {
  const op: string = edit.op;
  // The original's delete fell back to the content as its anchor.
  const anchor = edit.target ?? (op === 'delete' ? edit.content : undefined);
  if (anchor !== undefined && /[\r\n]/.test(anchor)) return { kind: 'refused', status: 'invalid', reason: 'an anchor names one rule, so it is one line' };
  if (op === 'delete') return { kind: 'engine', edit: { ...edit, target: anchor === undefined ? undefined : widenedToLine(blockText, anchor) } };
  const content = edit.content?.trim() ?? '';
  if (/[\r\n]/.test(content)) return { kind: 'refused', status: 'invalid', reason: 'a learned rule is one line' };
  if (content === '') return { kind: 'engine', edit };
  const bullet = asBullet(content);
  const newKey = ruleKey(bullet.slice(BULLET_PREFIX.length));
  const existingKeys = rulesInBlockText(blockText).map(ruleKey);
  if (op === 'replace') {
    if (anchor === undefined) return { kind: 'engine', edit };
    const target = widenedToLine(blockText, anchor);
    const replacedKey = target.startsWith(BULLET_PREFIX) ? ruleKey(target.slice(BULLET_PREFIX.length)) : undefined;
    if (target.trimEnd() === bullet) return { kind: 'refused', status: 'unmatched', reason: 'the rule already reads so' };
    if (newKey !== replacedKey && existingKeys.includes(newKey)) return { kind: 'refused', status: 'unmatched', reason: 'the new rule is already present' };
    return { kind: 'engine', edit: { ...edit, target, content: bullet } };
  }
  if (existingKeys.includes(newKey)) return { kind: 'refused', status: 'unmatched', reason: 'the rule is already present' };
  if (op === 'insert_after') {
    return { kind: 'engine', edit: { ...edit, target: anchor === undefined ? undefined : widenedToLine(blockText, anchor), content: bullet } };
  }
  if (op === 'append' && blockText !== '') {
    // The engine's append leaves a blank line before new text; inserting after the whole block
    // text (which occurs exactly once) puts the rule on the next line instead.
    return { kind: 'engine', edit: { ...edit, op: 'insert_after', target: blockText, content: bullet } };
  }
  return { kind: 'engine', edit: { ...edit, content: bullet } };
}

/**
 * Applies edits to the rules of the learned block only, one after another, with
 * @skillopt/optimizer's edit engine run on the block's bullet lines: a target that occurs more
 * than once is `ambiguous` and changes nothing, a missing one is `unmatched`, marker strings in
 * content are `invalid`. The original's operations map onto the engine's: `add` is `append`
 * (the contract's edit schema already reads it so), `delete` and `replace` take the original's
 * `anchor` as `target` and act on the one rule it falls in, and `insert_after` places a rule
 * after the rule its target falls in. Adding a rule already present (ignoring case and spacing)
 * is `unmatched`, as is a replace that changes nothing. The document outside the block is kept
 * byte for byte (see `writeLearnedRules`).
 */
export function applyLearnedEdits(document: string, edits: readonly Edit[]): LearnedEditsResult {
  let blockText = readLearnedRules(document)
    .map((rule) => `${BULLET_PREFIX}${rule}\n`)
    .join('');
  const reports: EditApplicationReport[] = [];
  let appliedCount = 0;
  edits.forEach((edit, index) => {
    const mapped = mapEdit(blockText, edit);
    if (mapped.kind === 'refused') {
      reports.push({ index, edit, status: mapped.status, reason: mapped.reason });
      return;
    }
    const outcome = applyEdits(blockText, [mapped.edit]);
    blockText = outcome.skill;
    appliedCount += outcome.appliedCount;
    for (const report of outcome.reports) reports.push({ index, edit, status: report.status, reason: report.reason });
  });
  if (appliedCount === 0) return { document, reports, appliedCount };
  return { document: writeLearnedRules(document, rulesInBlockText(blockText)), reports, appliedCount };
}
