import path from 'node:path';
import { createDataInvalidError } from '@skillopt/env-kit';
import type { SpreadsheetTaskItem, SpreadsheetTestCase } from './items.js';
import type { WorkbookCellValue } from './workbook-answer.js';
import type { WorkbookRuntime } from './workbook-runtime.js';

/** One answer cell as the evaluator compared it. */
export interface ComparedCell {
  cell: string;
  expected: WorkbookCellValue;
  got: WorkbookCellValue;
  match: boolean;
}

/** The evaluator's verdict on one output workbook. */
export interface WorkbookVerdict {
  pass: boolean;
  /** Why it failed: the output missing or unreadable, a missing sheet, or the first differing cell. */
  reason: string | null;
  /** Set when the failure is the data's (the gold workbook or the position unreadable), not the script's. */
  dataError?: boolean;
  cellCount?: number;
  mismatches: ComparedCell[];
  /** The non-empty answer cells, up to the report's limit, matched or not. */
  cells: ComparedCell[];
}

/** How one test case went: the script's run (or the agent's output), then the evaluator's verdict on its output. */
export interface CaseOutcome {
  number: string;
  /** `exec`: the script failed; `output`: the agent left no output workbook to evaluate; `eval`: evaluated. */
  stage: 'exec' | 'output' | 'eval';
  pass: boolean;
  /** The script's error (exec), what was wrong with the output (output) or the evaluator's reason (eval). */
  reason?: string;
  verdict?: WorkbookVerdict;
}

/** How many answer cells the evaluator lists per case for the analyst. */
const REPORT_CELLS = 200;

/** Compares output workbooks with their answers in one sandboxed call; a data error is thrown, never scored. */
export async function evaluateWorkbooks(
  runtime: WorkbookRuntime,
  item: SpreadsheetTaskItem,
  checks: ReadonlyArray<{ testCase: SpreadsheetTestCase; prediction: string }>,
  signal?: AbortSignal,
): Promise<WorkbookVerdict[]> {
  if (checks.length === 0) return [];
  const reply = await runtime.callTool<{ results: WorkbookVerdict[] }>(
    {
      command: 'evaluate',
      report_cells: REPORT_CELLS,
      checks: checks.map((check) => ({ gold: check.testCase.answer, prediction: check.prediction, position: item.evaluatedPosition })),
    },
    checks.flatMap((check) => [check.testCase.answer, check.prediction]),
    signal,
  );
  const dataError = reply.results.find((verdict) => verdict.dataError === true);
  if (dataError !== undefined) throw createDataInvalidError(`spreadsheetbench task ${item.id}: ${dataError.reason}`, { id: item.id });
  return reply.results;
}

/**
 * OJ-style scoring: the final script is run afresh on every case, the first included (an output an
 * earlier attempt left behind is never reused), each in a new directory holding only that case's
 * input; then every output is evaluated against its case's answer.
 */
export async function scoreScriptOnEveryCase(
  runtime: WorkbookRuntime,
  item: SpreadsheetTaskItem,
  code: string,
  options: { workDirectory: string; caseTimeoutMs: number; signal: AbortSignal },
): Promise<CaseOutcome[]> {
  const runs = [];
  for (const testCase of item.cases) {
    options.signal.throwIfAborted();
    const run = await runtime.runScript({
      code,
      input: testCase.input,
      directory: path.join(options.workDirectory, `final-case-${testCase.number}`),
      timeoutMs: options.caseTimeoutMs,
      signal: options.signal,
    });
    runs.push({ testCase, run });
  }
  const executed = runs.filter((entry) => entry.run.ok);
  const verdicts = await evaluateWorkbooks(
    runtime,
    item,
    executed.map((entry) => ({ testCase: entry.testCase, prediction: entry.run.outputPath })),
    options.signal,
  );
  return runs.map(({ testCase, run }): CaseOutcome => {
    if (!run.ok) return { number: testCase.number, stage: 'exec', pass: false, reason: run.error ?? 'the script failed' };
    const verdict = verdicts[executed.findIndex((entry) => entry.testCase === testCase)] as WorkbookVerdict;
    return { number: testCase.number, stage: 'eval', pass: verdict.pass, ...(verdict.reason === null ? {} : { reason: verdict.reason }), verdict };
  });
}
