import type { SpreadsheetFailureClass } from './spreadsheet-failure-classes.js';

/**
 * What a careful reader sees in a failed trajectory of a spreadsheet task: the faults in the code of
 * the last script (a result sheet, `"'" + str(…)`, `"=" + …`, `row + 1`) and in the evaluator's cell
 * report (`got "'5"`, each value one row below where it was expected). A wrong value alone shows no
 * class: that is a one-off, not something a rule fixes.
 */

export interface SpreadsheetTrajectoryText {
  /** The last assistant turn. */
  reply?: string;
  /** The first user turn: the instruction, with its answer position. */
  question?: string;
  /** The environment's turns: the evaluation with its cell report. */
  environment?: string;
  failureReason?: string;
}

const EVALUATION = /^Evaluation \(\d+ test cases?/m;

/** Whether the trajectory is a spreadsheet task's: a script over INPUT_PATH/OUTPUT_PATH, or the workbook evaluation. */
export function isSpreadsheetTrajectory(trajectory: SpreadsheetTrajectoryText): boolean {
  if (EVALUATION.test(trajectory.environment ?? '')) return true;
  return /```python/.test(trajectory.reply ?? '') && /\b(?:INPUT_PATH|OUTPUT_PATH)\b/.test(trajectory.reply ?? '');
}

/** The code of the last ```python block (or the whole reply when the block was cut off). */
function lastScript(reply: string): string {
  const blocks = [...reply.matchAll(/```python\n([\s\S]*?)(?:```|$)/g)];
  return blocks[blocks.length - 1]?.[1] ?? reply;
}

/** The sheets of the answer position (`Answer position: 'Sheet1'!D2:D20`, `Sheet1!A1, 'My data'!B2`). */
function answerSheets(question: string): Set<string> {
  const line = /^Answer position:(.*)$/m.exec(question)?.[1] ?? '';
  return new Set([...line.matchAll(/(?:'((?:[^']|'')+)'|([A-Za-z0-9_]+))!/g)].map((match) => (match[1] ?? match[2] ?? '').replace(/''/g, "'")));
}

const RESULT_SHEET_NAME = /^(?:results?|outputs?|answers?|new sheet|sheet_?new)$/i;

function writesToAnotherSheet(code: string, question: string): boolean {
  const sheets = answerSheets(question);
  const named = [...code.matchAll(/(?:create_sheet\(\s*(?:title\s*=\s*)?|\bsheet_name\s*=\s*|\.title\s*=\s*)["']([^"']+)["']/g)].map(
    (match) => match[1] as string,
  );
  return named.some((name) => (sheets.size > 0 ? !sheets.has(name) : RESULT_SHEET_NAME.test(name)));
}

interface ReportedCell {
  sheet: string;
  column: string;
  row: number;
  expected: string;
  got: string;
}

const REPORT_LINE = /^(.+?)!([A-Z]{1,3})(\d+): expected (.*?) \| got (.*?)\s*[✗✓]?\s*$/gm;

function reportedCells(report: string): ReportedCell[] {
  return [...report.matchAll(REPORT_LINE)].map((match) => ({
    sheet: match[1] as string,
    column: match[2] as string,
    row: Number(match[3]),
    expected: (match[4] as string).trim(),
    got: (match[5] as string).trim(),
  }));
}

const EMPTY = /^(?:None|null|empty|\(empty\)|"")$/i;

/** Each wrong value is the one expected a row above it. */
function shiftedOneRowDown(cells: readonly ReportedCell[]): boolean {
  const at = new Map(cells.map((cell) => [`${cell.sheet}!${cell.column}${cell.row}`, cell]));
  return cells.some((cell) => {
    const below = at.get(`${cell.sheet}!${cell.column}${cell.row + 1}`);
    return below !== undefined && !EMPTY.test(cell.expected) && below.got === cell.expected && below.got !== below.expected;
  });
}

export function diagnoseSpreadsheetTrajectory(trajectory: SpreadsheetTrajectoryText): SpreadsheetFailureClass[] {
  const code = lastScript(trajectory.reply ?? '');
  const report = `${trajectory.environment ?? ''}\n${trajectory.failureReason ?? ''}`;
  const found: SpreadsheetFailureClass[] = [];
  if (writesToAnotherSheet(code, trajectory.question ?? '')) found.push('wrong-sheet');
  if (/["']'["']\s*\+\s*str\(|f"'\{/.test(code) || /\bgot "'[-+]?\d/.test(report)) found.push('numbers-as-text');
  if (/["']=["']\s*\+|f["']=|'="'/.test(code)) found.push('formula-not-value');
  if (/\brow\s*\+\s*1\b|\boffset\(\s*row\s*=\s*1\b/.test(code) || shiftedOneRowDown(reportedCells(report))) found.push('off-by-one-range');
  return found;
}
