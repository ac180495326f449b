import type { FailureClass, RuleEffects } from './failure-classes.js';
import { hashHex, pick, unitHash } from './hashing.js';
import { renderSpreadsheetScript } from './spreadsheet-script.js';
import { SPREADSHEET_FAILURE_CLASSES, type SpreadsheetFailureClass } from './spreadsheet-failure-classes.js';
import { firingClasses, type TargetSettings } from './target.js';
import type { WorkbookCase, WorkbookValue } from './workbook-answer.js';

/**
 * The simulated target as a spreadsheet code writer: asked for a script that turns INPUT_PATH into
 * OUTPUT_PATH, it writes one (`spreadsheet-script.ts`) with the item's active failure classes in it.
 * Deterministic in (seed, item, skill, feedback): never a counter.
 */

/** Whether the prompt asks for a script over INPUT_PATH and OUTPUT_PATH (the spreadsheet env's task). */
export function asksForWorkbookScript(userText: string): boolean {
  return /\bINPUT_PATH\b/.test(userText) && /\bOUTPUT_PATH\b/.test(userText) && /```python/.test(userText);
}

/** Feedback after a run: wrong cells or an execution error. A reply without code changes nothing. */
const RUN_FEEDBACK = /^\s*The script (?:ran, but|failed:)/;

const RESULT_SHEETS = ['Result', 'Output', 'Results', 'Answers'];

export interface SpreadsheetDecision {
  /** The item's latent tendencies (fixed per item and seed, whatever the skill). */
  tendencies: SpreadsheetFailureClass[];
  /** The classes the script shows. */
  active: SpreadsheetFailureClass[];
  /** Classes the feedback turns made the model fix. */
  fixedByFeedback: SpreadsheetFailureClass[];
  noisy: boolean;
  /** The cases as the script writes them (one cell perturbed under noise). */
  cases: WorkbookCase[];
  resultSheet: string;
}

function isNumber(value: WorkbookValue): boolean {
  return typeof value === 'number';
}

/** The classes that can show on this item: numbers as text needs a number, a formula a value. */
function possibleClasses(cases: readonly WorkbookCase[]): SpreadsheetFailureClass[] {
  const values = cases.flatMap((workbookCase) => workbookCase.cells.map((cell) => cell.value));
  return SPREADSHEET_FAILURE_CLASSES.filter((failureClass) => {
    if (failureClass === 'numbers-as-text') return values.some(isNumber);
    if (failureClass === 'formula-not-value') return values.some((value) => value !== null);
    return true;
  });
}

const DAY_MS = 86_400_000;

/** A wrong value of the same kind, for noise. */
function perturbed(value: WorkbookValue): WorkbookValue {
  if (value === null) return 0;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return `${value} (draft)`;
  if ('datetime' in value) {
    const time = Date.parse(`${value.datetime}Z`);
    return Number.isNaN(time) ? 'n/a' : { datetime: new Date(time + DAY_MS).toISOString().slice(0, 19) };
  }
  const hour = Number(value.time.slice(0, 2));
  return Number.isNaN(hour) ? 'n/a' : { time: `${String((hour + 1) % 24).padStart(2, '0')}${value.time.slice(2)}` };
}

function withNoise(cases: readonly WorkbookCase[], seedParts: Array<string | number>): WorkbookCase[] {
  const withCells = cases.map((_, index) => index).filter((index) => (cases[index]?.cells.length ?? 0) > 0);
  if (withCells.length === 0) return [...cases];
  const caseIndex = pick(withCells, ...seedParts, 'noise-case');
  return cases.map((workbookCase, index) => {
    if (index !== caseIndex) return workbookCase;
    const cellIndex = Math.floor(unitHash(...seedParts, 'noise-cell') * workbookCase.cells.length);
    return {
      ...workbookCase,
      cells: workbookCase.cells.map((cell, at) => (at === cellIndex ? { ...cell, value: perturbed(cell.value) } : cell)),
    };
  });
}

/**
 * Decides the script for one item under one skill and the feedback so far. Each feedback turn on a
 * run (wrong cells, an execution error) makes the model fix one of its active classes with
 * probability one half, drawn from the feedback's text and place, as a real model sometimes learns.
 */
export function decideSpreadsheetBehaviour(
  settings: TargetSettings,
  itemKey: string,
  cases: readonly WorkbookCase[],
  skill: string,
  effects: RuleEffects,
  feedback: readonly string[],
): SpreadsheetDecision {
  const skillHash = hashHex(skill).slice(0, 16);
  const possible = possibleClasses(cases);
  const tendencies = possible.filter(
    (failureClass) => unitHash(settings.seed, 'tendency', itemKey, failureClass) < settings.tendencyRates[failureClass as FailureClass],
  );
  let active = firingClasses(settings.seed, itemKey, possible, tendencies, effects) as SpreadsheetFailureClass[];
  const fixedByFeedback: SpreadsheetFailureClass[] = [];
  feedback.forEach((text, turn) => {
    if (!RUN_FEEDBACK.test(text) || active.length === 0) return;
    const feedbackHash = hashHex(text).slice(0, 16);
    if (unitHash(settings.seed, 'feedback-fix', itemKey, skillHash, turn, feedbackHash) >= 0.5) return;
    const fixed = pick(active, settings.seed, 'feedback-class', itemKey, skillHash, turn, feedbackHash);
    fixedByFeedback.push(fixed);
    active = active.filter((failureClass) => failureClass !== fixed);
  });
  const noisy = unitHash(settings.seed, 'noise', itemKey, skillHash) < settings.noise;
  const usedSheets = new Set(cases.flatMap((workbookCase) => [...workbookCase.cells, ...workbookCase.identify].map((cell) => cell.sheet.toLowerCase())));
  const freeSheets = RESULT_SHEETS.filter((name) => !usedSheets.has(name.toLowerCase()));
  return {
    tendencies,
    active,
    fixedByFeedback,
    noisy,
    cases: noisy ? withNoise(cases, [settings.seed, itemKey, skillHash]) : [...cases],
    resultSheet: pick(freeSheets.length > 0 ? freeSheets : [`Result ${skillHash.slice(0, 4)}`], settings.seed, 'result-sheet', itemKey),
  };
}

/**
 * The reply to a script request for a task the simulated knowledge does not hold: a script that
 * saves the workbook unchanged, a plausible wrong answer of the right shape.
 */
export function renderUnknownSpreadsheetReply(): string {
  const script = renderSpreadsheetScript({ cases: [], active: [], resultSheet: RESULT_SHEETS[0] as string });
  return `I do not know this task (it is not in my simulated knowledge), so the script below saves the workbook as it is.\n\n\`\`\`python\n${script}\`\`\`\n`;
}

/** The reply: a sentence, then the whole script in one ```python block. */
export function renderSpreadsheetReply(decision: SpreadsheetDecision, afterFeedback: boolean): string {
  const opening = afterFeedback
    ? 'Here is the whole script again, revised after the feedback.'
    : 'The script below tells from the workbook which of the task\u2019s inputs it was given and writes that one\u2019s answers (from my simulated knowledge).';
  const script = renderSpreadsheetScript({ cases: decision.cases, active: decision.active, resultSheet: decision.resultSheet });
  return `${opening}\n\n\`\`\`python\n${script}\`\`\`\n`;
}
