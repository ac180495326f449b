import type { CaseOutcome, ComparedCell } from './case-scoring.js';
import { describeCellValue } from './workbook-answer.js';

/** The most characters of the report the analyst reads; past it the middle is cut. */
const REPORT_CHARACTERS = 12_000;

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? text.trim()
  );
}

/** A case's one-line verdict: `PASS`, or `FAIL: <why>` naming the first wrong cell with both values. */
export function describeCaseOutcome(outcome: CaseOutcome): string {
  if (outcome.pass) return 'PASS';
  if (outcome.stage === 'exec') return `FAIL: execution error: ${lastLine(outcome.reason ?? '')}`;
  if (outcome.stage === 'output') return `FAIL: ${outcome.reason ?? 'no output workbook'}`;
  const first = outcome.verdict?.mismatches[0];
  if (first !== undefined && !(outcome.reason ?? '').startsWith('worksheet not found'))
    return `FAIL: ${first.cell}: expected ${describeCellValue(first.expected)}, got ${describeCellValue(first.got)}`;
  return `FAIL: ${outcome.reason ?? 'wrong output'}`;
}

function cellLine(cell: ComparedCell): string {
  return `${cell.cell}: expected ${describeCellValue(cell.expected)} | got ${describeCellValue(cell.got)} ${cell.match ? '✓' : '✗'}`;
}

function shorten(text: string): string {
  if (text.length <= REPORT_CHARACTERS) return text;
  const half = Math.floor(REPORT_CHARACTERS / 2);
  return `${text.slice(0, half)}\n[... ${text.length - REPORT_CHARACTERS} characters cut ...]\n${text.slice(-half)}`;
}

/**
 * What the analyst reads after the rollout (the target never sees it): each case's verdict, the
 * count, and the cells of the first failed case (or of case 1) with expected and written values.
 */
export function describeEvaluation(outcomes: readonly CaseOutcome[], how = 'the final script was run on each'): string {
  const passed = outcomes.filter((outcome) => outcome.pass).length;
  const shown = outcomes.find((outcome) => !outcome.pass && outcome.verdict !== undefined) ?? outcomes.find((outcome) => outcome.verdict !== undefined);
  const lines = [
    `Evaluation (${outcomes.length} test case${outcomes.length === 1 ? '' : 's'}; ${how})`,
    ...outcomes.map((outcome) => `Case ${outcome.number}: ${describeCaseOutcome(outcome)}`),
    `Result: ${passed} of ${outcomes.length} cases passed`,
  ];
  const failedRun = outcomes.find((outcome) => outcome.stage === 'exec');
  if (failedRun !== undefined) lines.push(`Script output of case ${failedRun.number}:`, (failedRun.reason ?? '').trim());
  if (shown?.verdict !== undefined && shown.verdict.cells.length > 0) {
    lines.push(`Cells of case ${shown.number} (expected | got):`, ...shown.verdict.cells.map(cellLine));
    const unlisted = shown.verdict.mismatches.filter((mismatch) => !shown.verdict?.cells.some((cell) => cell.cell === mismatch.cell));
    if (unlisted.length > 0) lines.push(...unlisted.slice(0, 20).map(cellLine));
  }
  return shorten(lines.join('\n'));
}
